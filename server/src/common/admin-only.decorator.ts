import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const REQUIRED_ROLE = 'requiredRole';
/** Kept in openapi.yaml, so tools (the fuzz test, API clients) know which operations need role admin. */
export const REQUIRED_ROLE_EXTENSION = 'x-required-role';

/**
 * Declares that the handler (or every handler of the controller) needs a session with role admin. The auth guard
 * reads this from the route itself, never from how the request's path is spelled.
 */
export const AdminOnly = () => applyDecorators(SetMetadata(REQUIRED_ROLE, 'admin'), ApiExtension(REQUIRED_ROLE_EXTENSION, 'admin'));
