#!/usr/bin/env node
// StreamHub update check: asks the portal which release this server may move to, downloads its build for this
// platform and checks it against the release's signed manifest (the signature first, then size and SHA-256) before
// it keeps the file. Prints "ok <file>" only then. Node 18 or newer; no dependencies.
// Usage: node streamhub-update.mjs --url https://portal.example.com --key SH-XXXXX-… --current 4.1.0
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { assertMatches, digester, entryOf, Untrusted, verifiedManifest } from './manifest-check.mjs';

const EXIT = { OK: 0, ERROR: 1, REFUSED: 2, UNTRUSTED: 3, USAGE: 64 };
const OS = { linux: 'linux', win32: 'windows', darwin: 'macos' };
const ARCH = { x64: 'x64', arm64: 'arm64', ia32: 'x86' };

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PORTAL_URL },
    key: { type: 'string', default: process.env.LICENSE_KEY },
    state: { type: 'string', default: process.env.DEVICE_STATE_FILE ?? 'streamhub-device.json' },
    'server-uid': { type: 'string', default: process.env.SERVER_UID },
    current: { type: 'string' },
    os: { type: 'string', default: OS[process.platform] },
    arch: { type: 'string', default: ARCH[process.arch] },
    channel: { type: 'string', default: 'stable' },
    constraint: { type: 'string' },
    name: { type: 'string' },
    out: { type: 'string', default: '.' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const serverUid = args['server-uid'] ?? (existsSync(args.state) ? JSON.parse(readFileSync(args.state, 'utf8')).server_uid : undefined);

if (args.help || !args.url || !args.key || !serverUid || !args.os || !args.arch) {
  console.log(`Usage: node streamhub-update.mjs --url <portal URL> --key <license key> [options]

  --current <version>     the release this server runs (default: none, so the newest it may have is fetched)
  --state <file>          the device identity streamhub-license-test.mjs keeps (default ./streamhub-device.json)
  --server-uid <id>       the server id it activated with, instead of --state
  --os, --arch            the platform (default: this machine's: ${OS[process.platform]}/${ARCH[process.arch]})
  --channel <channel>     stable, rc, beta or alpha (default stable)
  --constraint <range>    stay within a version range, e.g. 4.x
  --name <file name>      which build of the release (default: the first for the platform)
  --out <folder>          where the verified file is kept (default .)

Environment: PORTAL_URL, LICENSE_KEY, DEVICE_STATE_FILE, SERVER_UID.
Prints "current" when there is nothing newer, "ok <file>" when a verified update was downloaded.
Exit codes: 0 ok or current, 1 error, 2 the portal refused the license, 3 the manifest or the file failed verification, 64 usage.`);
  process.exit(args.help ? EXIT.OK : EXIT.USAGE);
}

const portal = args.url.replace(/\/+$/, '');

async function main() {
  const query = new URLSearchParams({ os: args.os, arch: args.arch, channel: args.channel });
  if (args.current) query.set('current', args.current);
  if (args.constraint) query.set('constraint', args.constraint);
  const response = await fetch(`${portal}/api/releases/upgrade?${query}`, {
    headers: { Accept: 'application/json', Authorization: `License ${args.key.trim()}`, 'X-Server-Uid': serverUid },
  });
  if (response.status === 204) {
    console.error(`${args.current ?? 'This server'} is the newest release this license offers for ${args.os}/${args.arch}.`);
    console.log('current');
    return;
  }
  const body = await response.json().catch(() => ({}));
  if (response.status === 401 || response.status === 403) {
    console.error(`REFUSED by the portal: ${body.code ?? response.status}: ${body.message ?? response.statusText}`);
    process.exit(EXIT.REFUSED);
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.message ?? response.statusText}`);
  const offer = body.data;

  // The manifest first: verified with the key its kid names, it says what the file must be.
  const keys = await fetch(`${portal}/api/license-server/public-keys`).then((answer) => answer.json());
  const manifest = verifiedManifest(offer.manifest, keys?.data?.keys, offer.version);
  const file = args.name ? offer.files.find((candidate) => candidate.name === args.name) : offer.files[0];
  if (!file) throw new Error(`${offer.version} has no build named ${args.name} for ${args.os}/${args.arch}`);
  const entry = entryOf(manifest, file.name);

  // Then the bytes, hashed as they arrive, kept under their name only once they match.
  const target = resolve(join(args.out, basename(entry.name)));
  const partial = `${target}.part`;
  const download = await fetch(file.url);
  if (!download.ok) throw new Error(`download of ${file.name}: HTTP ${download.status}`);
  const digest = digester();
  try {
    await pipeline(
      Readable.fromWeb(download.body),
      new Transform({
        transform(chunk, _encoding, done) {
          digest.update(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(partial),
    );
    assertMatches(entry, digest.result(), file.name);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  renameSync(partial, target);
  console.error(
    `${manifest.product} ${manifest.version} (${manifest.channel}) for ${entry.os}/${entry.arch}, signed by key ${manifest.kid}`,
  );
  console.log(`ok ${target}`);
}

main().catch((error) => {
  if (error instanceof Untrusted) {
    console.error(`REFUSED: ${error.message}`);
    process.exit(EXIT.UNTRUSTED);
  }
  console.error(`Error: ${error.message}`);
  process.exit(EXIT.ERROR);
});
