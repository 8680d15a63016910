#!/usr/bin/env node
// StreamHub download check: verifies a downloaded file against its release's signed manifest, first the manifest's
// Ed25519 signature with the portal key its kid names, then the file's size and SHA-256. Prints "ok" only then.
// Node 18 or newer; no dependencies.
// Usage: node streamhub-verify-download.mjs --url https://portal.example.com --version 2.1.0 --file ./streamhub_2.1.0_amd64.deb
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { canonicalJson } from './canonical-json.mjs';

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

function digestOf(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let size = 0;
    createReadStream(file)
      .on('data', (chunk) => {
        size += chunk.length;
        hash.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolve({ size, sha256: hash.digest('hex') }));
  });
}

async function main() {
  const [{ data: signed }, { data: listed }] = await Promise.all([
    getJson(`/api/releases/${encodeURIComponent(args.version)}/manifest`),
    getJson('/api/license-server/public-keys'),
  ]);
  const { manifest, signature, kid } = signed ?? {};
  if (!manifest || typeof signature !== 'string') refuse('the portal sent no signed manifest');
  // First the signature, with the key the manifest names: nothing in an unverified manifest is trusted.
  const key = (listed?.keys ?? []).find((candidate) => candidate.kid === kid);
  if (!key) refuse(`the manifest is signed with key ${kid}, which the portal does not list`);
  const bytes = Buffer.from(signature, 'base64');
  const authentic =
    bytes.length === 64 &&
    bytes.toString('base64') === signature &&
    verify(null, Buffer.from(canonicalJson(manifest), 'utf8'), createPublicKey(key.public_key_pem), bytes);
  if (!authentic) refuse(`the manifest's signature does not verify with key ${kid}`);
  if (manifest.kid !== kid) refuse(`the manifest names key ${manifest.kid}, but key ${kid} signed it`);
  if (manifest.version !== args.version) refuse(`the manifest is for ${manifest.version}, not ${args.version}`);

  // Then the file, against the verified manifest.
  const entry = manifest.files.find((file) => file.name === name);
  if (!entry) refuse(`the manifest of ${manifest.version} lists no file named ${name}`);
  const { size, sha256 } = await digestOf(args.file);
  if (size !== entry.size || sha256 !== entry.sha256)
    refuse(`${args.file} does not match the manifest: ${size} bytes, SHA-256 ${sha256}; expected ${entry.size} bytes, ${entry.sha256}`);
  console.error(`${name}: ${manifest.product} ${manifest.version} (${manifest.channel}, ${entry.os}/${entry.arch}), signed by key ${kid}`);
  console.log('ok');
}

main().catch((error) => {
  console.error(`Error: ${error.message}`);
  process.exit(EXIT.ERROR);
});
