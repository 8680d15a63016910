import { applyDecorators, Post, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { Audit } from './audit.decorator';

export const IS_PUBLIC = 'isPublic';
/** Marks the handler (or controller) as reachable without a session; everything else needs a bearer token. */
export const PUBLIC_EXTENSION = 'x-public';

export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true));

/** A POST reachable without a session (a sign-in step, a mailed link's action), in the audit trail as `action`. */
export const PublicPost = (path: string, action: string, what: string) => applyDecorators(Public(), Post(path), Audit(action, what));
