import { Logger } from '@nestjs/common';
import { reportSeeds } from '../../seeds/seed-runner';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/app-config';
import { LicenseSigningService } from './modules/licenses/license-signing.service';

async function bootstrap() {
  const config = loadConfig();
  const { app, seeds } = await createApp(config);
  if (seeds) reportSeeds(seeds, config);
  // Created here rather than on first use, so the operator sees (and can back up) the key from the first start on.
  const signingKey = app.get(LicenseSigningService).ensureKey();
  const logger = new Logger('Portal');
  logger.log(`License signing key ${signingKey.keyId} from ${signingKey.source}`);
  await app.listen(config.port, config.host);
  logger.log(`StreamHub portal on ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs, database: ${config.database.type})`);
}

bootstrap().catch((error) => {
  // A configuration problem is the operator's to fix: say what, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
