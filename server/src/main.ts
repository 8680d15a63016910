import { Logger } from '@nestjs/common';
import { reportSeeds } from '../../seeds/seed-runner';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/app-config';

async function bootstrap() {
  const config = loadConfig();
  const { app, seeds } = await createApp(config);
  if (seeds) reportSeeds(seeds, config);
  await app.listen(config.port, config.host);
  new Logger('Portal').log(
    `StreamHub portal on ${config.publicUrl} (API docs at ${config.publicUrl}/api/docs, database: ${config.database.type})`,
  );
}

bootstrap().catch((error) => {
  // A configuration problem is the operator's to fix: say what, without a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
