#!/usr/bin/env node
// The JavaScript and CSS a first visitor of `/` downloads: the entry script, its modulepreloads and
// stylesheets from client/dist/index.html, with raw and gzip sizes. Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../client/dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const rows = assets.map((asset) => {
  const content = readFileSync(join(dist, asset));
  return { asset, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
});
const sum = (kind, key) => rows.filter((row) => row.asset.endsWith(kind)).reduce((total, row) => total + row[key], 0);

for (const row of rows) console.log(`${row.asset.padEnd(48)} ${kb(row.raw).padStart(10)} ${kb(row.gzip).padStart(10)} gz`);
console.log(`\nInitial JS for /:  ${kb(sum('.js', 'raw'))} raw, ${kb(sum('.js', 'gzip'))} gzip`);
console.log(`Initial CSS for /: ${kb(sum('.css', 'raw'))} raw, ${kb(sum('.css', 'gzip'))} gzip`);
