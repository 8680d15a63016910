import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { PUBLIC_EXTENSION } from './common/public.decorator';

export const BEARER = 'bearer';
/** The sync API's credential: another portal's LICENSE_SERVER_SYNC_TOKEN, not a session. */
export const SYNC_TOKEN = 'sync-token';
/** The update API's credential: a streaming server's license key (`Authorization: License <key>`). */
export const LICENSE_KEY = 'license-key';

/**
 * The API contract, built from the running module graph. Operation ids are handler names; every
 * operation not marked @Public() carries bearer security.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('StreamHub Portal API')
    .setDescription(
      'Licensing and distribution portal for the StreamHub streaming server. ' +
        'Errors are `{statusCode, message, code?, errors?}` (`code` names a refusal a program may act on); every /api/admin/* operation requires role admin.',
    )
    .setVersion('1.0.0')
    .addSecurity(BEARER, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'A session token. Customers get one from `POST /api/login` (`token`); administrators from `POST /api/admin/login` ' +
        '(`data.token`), or, with two-factor sign-in on, from `POST /api/admin/login/mfa` with the `mfa_token` it answers ' +
        'and a code. Send it as `Authorization: Bearer <token>`. It ends at `POST /api/logout`, at its expiry (JWT_TTL_SECONDS, a day by default), ' +
        "and when the account's password or role changes.",
    })
    // Not a JWT: a fixed secret shared by the two portals (addBearerAuth would declare it one).
    .addSecurity(SYNC_TOKEN, {
      type: 'http',
      scheme: 'bearer',
      description: 'The LICENSE_SERVER_SYNC_TOKEN of this portal: a fixed secret the pushing portal is configured with, not a session.',
    })
    .addSecurity(LICENSE_KEY, {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        "A streaming server's license key, sent as `Authorization: License <key>`, with its server id in `X-Server-Uid` " +
        '(the one it activated with). Rate-limited as the activation API is.',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller: string, method: string) => method,
  });
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as Array<Record<string, unknown>>) {
      if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
      if (operation[PUBLIC_EXTENSION]) delete operation[PUBLIC_EXTENSION];
      else operation.security = [{ [BEARER]: [] }];
    }
  }
  return document;
}

/** Recursively sorts object keys so the YAML diff only shows real changes. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sortKeys) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    ) as T;
  }
  return value;
}
