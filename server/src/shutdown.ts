import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { AppConfig } from './config/app-config';
import { DrainState } from './modules/health/drain-state.service';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops an instance without dropping work: /api/health says 'draining' (and keeps serving for
 * SHUTDOWN_DELAY_SECONDS, so a balancer stops sending), then no new connections are accepted, requests in flight
 * get up to SHUTDOWN_GRACE_SECONDS to finish, and only then the app closes: batched log writers flush, pools close.
 */
export async function shutDownGracefully(app: NestExpressApplication, config: AppConfig, reason: string): Promise<void> {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  app.get(DrainState).start();
  logger.log(`${reason}: draining`);
  if (config.shutdown.delaySeconds) await sleep(config.shutdown.delaySeconds * 1000);

  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = setTimeout(() => {
    logger.warn(`Requests still running after ${config.shutdown.graceSeconds} s: closing their connections`);
    server.closeAllConnections();
  }, config.shutdown.graceSeconds * 1000);
  await closed;
  clearTimeout(deadline);
  await app.close();
  logger.log('Stopped');
}
