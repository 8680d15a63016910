import { NestFactory } from '@nestjs/core';
import { AppModule } from '../server/src/app.module';
import { loadConfig } from '../server/src/config/app-config';
import { migrate } from '../server/src/database/database.module';
import { DataSource } from 'typeorm';
import { reportSeeds, runSeeds } from './seed-runner';

/** `npm run seed`: migrations, then the idempotent seeds, without starting the HTTP server. */
async function main() {
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error', 'warn', 'log'] });
  try {
    await migrate(app.get(DataSource));
    const report = await runSeeds(app, config);
    reportSeeds(report, config);
    if (!report.adminCreated && report.settingsAdded.length === 0) console.log('Seeds: nothing to do, everything is in place.');
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
