import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createApp } from '../app';
import { loadConfig, REPO_ROOT } from '../config/app-config';
import { buildOpenApiDocument, sortKeys } from '../openapi';

/** Writes openapi.yaml at the repository root from the running module graph (no server is started). */
async function main() {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: 'x'.repeat(48),
    CLIENT_DIST: '',
    LOG_LEVEL: 'error',
  });
  const { app } = await createApp(config, { seed: false, docs: false });
  const document = sortKeys(buildOpenApiDocument(app));
  await app.close();
  const target = process.argv[2] ?? join(REPO_ROOT, 'openapi.yaml');
  writeFileSync(target, stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }));
  console.log(`OpenAPI written to ${target}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
