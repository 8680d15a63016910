#!/usr/bin/env node
// StreamHub download check: verifies a downloaded file against its release's signed manifest, first the manifest's
// Ed25519 signature with the portal key its kid names, then the file's size and SHA-256. Prints "ok" only then.
// Node 18 or newer; no dependencies.
// Usage: node streamhub-verify-download.mjs --url https://portal.example.com --version 2.1.0 --file ./streamhub_2.1.0_amd64.deb
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { assertMatches, digestOf, entryOf, Untrusted, verifiedManifest } from './manifest-check.mjs';

const EXIT = { OK: 0, ERROR: 1, UNTRUSTED: 3, USAGE: 64 };

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PORTAL_URL },
    version: { type: 'string' },
    file: { type: 'string' },
    name: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (args.help || !args.url || !args.version || !args.file) {
  console.log(`Usage: node streamhub-verify-download.mjs --url <portal URL> --version <release> --file <downloaded file> [--name <file name>]

  --name <file name>   the file's name in the release (default: the name of --file)

Environment: PORTAL_URL.
Prints "ok" when the manifest's signature verifies with the portal's key and the file matches it.
Exit codes: 0 ok, 1 error (portal unreachable, unknown release), 3 refused (signature, key or file do not match), 64 usage.`);
  process.exit(args.help ? EXIT.OK : EXIT.USAGE);
}

const portal = args.url.replace(/\/+$/, '');
const name = args.name ?? basename(args.file);

async function getJson(path) {
  const response = await fetch(`${portal}${path}`, { headers: { Accept: 'application/json' } });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}: ${json.message ?? response.statusText}`);
  return json;
}

function refuse(reason) {
  console.error(`REFUSED: ${reason}`);
  process.exit(EXIT.UNTRUSTED);
}

async function main() {
  const [{ data: signed }, { data: listed }] = await Promise.all([
    getJson(`/api/releases/${encodeURIComponent(args.version)}/manifest`),
    getJson('/api/license-server/public-keys'),
  ]);
  // First the signature, with the key the manifest names; then the file, against the verified manifest.
  const manifest = verifiedManifest(signed, listed?.keys, args.version);
  const entry = entryOf(manifest, name);
  assertMatches(entry, await digestOf(args.file), args.file);
  console.error(
    `${name}: ${manifest.product} ${manifest.version} (${manifest.channel}, ${entry.os}/${entry.arch}), signed by key ${signed.kid}`,
  );
  console.log('ok');
}

main().catch((error) => {
  if (error instanceof Untrusted) refuse(error.message);
  console.error(`Error: ${error.message}`);
  process.exit(EXIT.ERROR);
});
