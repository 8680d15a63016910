#!/usr/bin/env node
// The JavaScript and CSS a first visitor of `/` and of `/login` downloads (the entry chunk and its static imports,
// plus the lazily loaded route chunk for /login), raw and gzip, read from Vite's build manifest. Target: at most
// 120 kB gzip JS for each. Run after `npm run build`; client/.size-limit.mjs enforces the same figures in `npm test`.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { firstLoad } from '../client/scripts/first-load.mjs';

const TARGET_GZIP_JS = 120 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '../client/dist');
if (!existsSync(join(dist, '.vite/manifest.json'))) {
  console.error('client/dist has no build manifest: run `npm run build` first.');
  process.exit(1);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const size = (file) => {
  const content = readFileSync(join(dist, file));
  return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
};
const total = (rows, key) => rows.reduce((sum, row) => sum + row[key], 0);

for (const [route, files] of Object.entries(firstLoad(dist))) {
  const js = files.js.map(size);
  const css = files.css.map(size);
  console.log(`\n${route}`);
  for (const row of [...js, ...css]) console.log(`  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(10)} gz`);
  const gzipJs = total(js, 'gzip');
  const verdict = gzipJs <= TARGET_GZIP_JS ? 'within' : 'OVER';
  console.log(`  JS:  ${kb(total(js, 'raw'))} raw, ${kb(gzipJs)} gzip (${verdict} the ${kb(TARGET_GZIP_JS)} target)`);
  console.log(`  CSS: ${kb(total(css, 'raw'))} raw, ${kb(total(css, 'gzip'))} gzip`);
}
