import { Logger } from '@nestjs/common';
import { reportSeeds } from '../../seeds/seed-runner';
import type { Server } from 'node:http';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/app-config';
import { LicenseSigningService } from './modules/licenses/license-signing.service';
import { shutDownGracefully } from './shutdown';

async function bootstrap() {
  const config = loadConfig();
  const { app, seeds } = await createApp(config);
  // Loaded here rather than on first use: the operator sees the key from the first start on, and an unreadable one stops the start.
  const signingKey = await app.get(LicenseSigningService).ensureKey();
  const logger = new Logger('Portal');
  logger.log(`License signing key ${signingKey.keyId} from ${signingKey.source}`);
  await app.listen(config.port, config.host);
  const server = app.getHttpServer() as Server;
  // Above a balancer's idle timeout (often 60 s), so it never sends on a connection this end is closing.
  server.keepAliveTimeout = config.http.keepAliveSeconds * 1000;
  server.headersTimeout = server.keepAliveTimeout + 1000;
  let stopping: Promise<void> | null = null;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping ??= shutDownGracefully(app, config, signal).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
  logger.log(`StreamHub portal on ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs, database: ${config.database.type})`);
  if (seeds) reportSeeds(seeds, config);
}

bootstrap().catch((error) => {
  // A configuration problem is the operator's to fix: say what, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
