import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import express, { json, type NextFunction, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { existsSync } from 'node:fs';
import type { Server, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { DataSource } from 'typeorm';
import { runSeeds, SeedReport } from '../../seeds/seed-runner';
import { AppModule } from './app.module';
import { AllExceptionsFilter } from './common/all-exceptions.filter';
import { ApiError, MALFORMED_JSON } from './common/api-error';
import { assertJsonWithinLimits } from './common/json-limits';
import { securityHeaders } from './common/security-headers';
import { createValidationPipe } from './common/validation';
import { AppConfig } from './config/app-config';
import { compressedResponses } from './common/compressed-responses';
import { nestLogger, withRequestIds } from './config/logger';
import { migrate } from './database/database.module';
import { DownloadFastPath } from './modules/downloads/download-fast-path';
import { ActivationFastPath } from './modules/license-server/activation-fast-path';
import { DrainState } from './modules/health/drain-state.service';
import { AccessLogService } from './modules/access-log/access-log.service';
import { AuditLogService } from './modules/logs/audit-log.service';
import { auditFailures } from './modules/logs/failure-reporter';
import { buildOpenApiDocument } from './openapi';

export interface CreateAppOptions {
  /** Run the idempotent seeds (admin account, default settings) after migrations. Default true. */
  seed?: boolean;
  /** Serve Swagger UI at /api/docs. Default true. */
  docs?: boolean;
}

/** The same app for `main`, the tests and the OpenAPI generator; migrations (and seeds) have run when it returns. */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<{ app: NestExpressApplication; seeds: SeedReport | null }> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), new ExpressAdapter(exactRouting()), {
    bodyParser: false,
    logger: nestLogger(config),
  });
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy);

  const drain = app.get(DrainState);
  app.use((_request: Request, response: Response, next: NextFunction) => {
    drain.closeIfDraining(response);
    next();
  });
  app.use(securityHeaders());
  app.use(app.get(AccessLogService).middleware());
  app.use(compressedApiResponses());
  app.use(jsonBodyParser(config.http.bodyLimit));
  app.useBodyParser('urlencoded', { limit: config.http.bodyLimit, extended: false });
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  const filter = new AllExceptionsFilter(auditFailures(app.get(AuditLogService)));
  app.useGlobalFilters(filter);
  // The activation heartbeat and signed-in downloads are handled before Express (ActivationFastPath, DownloadFastPath).
  const expressApp = app.getHttpAdapter().getInstance() as express.Express;
  const server = app.getHttpServer() as Server;
  const [listener, ...others] = server.listeners('request');
  if (listener !== expressApp || others.length)
    throw new Error('The HTTP server no longer hands its requests to Express alone: update the fast paths before it');
  server.removeListener('request', expressApp);
  const downloads = app.get(DownloadFastPath).listener({ express: expressApp, filter, next: expressApp });
  server.on(
    'request',
    withRequestIds(
      app.get(ActivationFastPath).listener({ express: expressApp, filter, next: downloads, bodyLimit: config.http.bodyLimit }),
    ),
  );

  if (options.docs !== false) {
    SwaggerModule.setup('api/docs', app, () => buildOpenApiDocument(app), {
      jsonDocumentUrl: 'api/docs-json',
      yamlDocumentUrl: 'api/docs-yaml',
      customSiteTitle: 'StreamHub Portal API',
    });
  }
  if (config.clientDist && existsSync(join(config.clientDist, 'index.html'))) serveClient(app, config.clientDist);

  const dataSource = app.get(DataSource);
  await migrate(dataSource);
  const seeds = options.seed === false ? null : await runSeeds(app, config);
  await app.init();
  return { app, seeds };
}

/** `/api/ADMIN/users` or `/api/admin/users/` is a 404, not another name for an admin route; set before Express creates its router. */
function exactRouting(): express.Express {
  const server = express();
  server.set('case sensitive routing', true);
  server.set('strict routing', true);
  return server;
}

/** A parse failure reported as such, not as the parser's internal message; too deep, wide or bad Unicode refused (json-limits.ts). */
function jsonBodyParser(limit: number) {
  const parse = json({ limit });
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: unknown) => {
      if ((error as { type?: string } | undefined)?.type === 'entity.parse.failed') return next(ApiError.badRequest(MALFORMED_JSON));
      if (error) return next(error);
      try {
        assertJsonWithinLimits(request.body);
      } catch (refusal) {
        return next(refusal);
      }
      next();
    });
}

/** Paths under /api in any spelling end in the API's 404, never in the web client's page. */
const API_PREFIX_ANY_CASE = /^\/+api(\/|$)/i;
/** Streamed bytes (downloads with Range, exports), and small activation responses where compressing costs more than it saves. */
const NOT_COMPRESSED = /\/(download|export)(\/|$)|^\/api\/license-server\/(activate|validate|deactivate)$/i;

function compressedApiResponses() {
  const compress = compressedResponses();
  // Decided before compression hooks into the response: a download pays nothing for it.
  return (request: Request, response: Response, next: NextFunction) =>
    API_PREFIX_ANY_CASE.test(request.path) && !NOT_COMPRESSED.test(request.path) ? compress(request, response, next) : next();
}

/** Precompressed at build time (client/vite.config.ts); hidden files (the build's .vite/manifest.json) are not served. */
function serveClient(app: NestExpressApplication, dist: string): void {
  const assets = join(resolve(dist), 'assets') + sep;
  const files = expressStaticGzip(dist, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      // Ranges would address the compressed bytes.
      acceptRanges: false,
      cacheControl: false,
      setHeaders: (response: ServerResponse, path: string) => {
        // Hashed names under assets/ never change their bytes; mime-types spells the twins' charset in capitals.
        response.setHeader('Cache-Control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
        const type = response.getHeader('Content-Type');
        if (typeof type === 'string') response.setHeader('Content-Type', type.replace('charset=UTF-8', 'charset=utf-8'));
      },
    },
  });
  const forClient = (request: Request) =>
    (request.method === 'GET' || request.method === 'HEAD') && !API_PREFIX_ANY_CASE.test(request.path);
  app.use((request: Request, response: Response, next: NextFunction) => (forClient(request) ? files(request, response, next) : next()));
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (!forClient(request)) return next();
    request.url = '/index.html';
    files(request, response, next);
  });
  new Logger('Client').log(`Serving the web client from ${dist}`);
}
