import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const IS_PUBLIC = 'isPublic';
/** Marks the handler (or controller) as reachable without a session; everything else needs a bearer token. */
export const PUBLIC_EXTENSION = 'x-public';

export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true));
