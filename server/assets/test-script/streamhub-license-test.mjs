#!/usr/bin/env node
// StreamHub license test: activates this machine on a license and validates it on an interval, the way a
// streaming server does, printing what the portal answers. Node 18 or newer; no dependencies.
// Usage: node streamhub-license-test.mjs --url https://portal.example.com --key SH-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX
import { createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { canonicalJson } from './canonical-json.mjs';

const EXIT = { OK: 0, REFUSED: 2, UNTRUSTED: 3, USAGE: 64 };
const STOP_CODES = new Set(['REVOKED', 'EXPIRED', 'NOT_FOUND', 'NOT_ACTIVATED', 'PENDING', 'TOO_MANY_DEVICES']);

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PORTAL_URL },
    key: { type: 'string', default: process.env.LICENSE_KEY },
    interval: { type: 'string', default: process.env.VALIDATE_INTERVAL ?? '' },
    state: { type: 'string', default: process.env.DEVICE_STATE_FILE ?? 'streamhub-device.json' },
    name: { type: 'string', default: process.env.DEVICE_NAME ?? `${hostname()} (license test)` },
    'max-checks': { type: 'string', default: '' },
    deactivate: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (args.help || !args.url || !args.key) {
  console.log(`Usage: node streamhub-license-test.mjs --url <portal URL> --key <license key> [options]

  --interval <seconds>   time between validations (default: what the portal suggests)
  --state <file>         where this device's identity is kept (default ./streamhub-device.json)
  --name <text>          device name shown in the portal
  --max-checks <n>       stop after n validations (exit 0)
  --deactivate           give this device's seat back and exit

Environment: PORTAL_URL, LICENSE_KEY, VALIDATE_INTERVAL, DEVICE_STATE_FILE, DEVICE_NAME.
Exit codes: 0 done, 2 the portal refused the license (revoked, expired, ...), 3 an answer failed verification, 64 usage.`);
  process.exit(args.help ? EXIT.OK : EXIT.USAGE);
}

const portal = args.url.replace(/\/+$/, '');
const licenseKey = args.key.trim().toUpperCase();
const stateFile = resolve(args.state);

const log = (message) => console.log(`[${new Date().toISOString()}] ${message}`);

/** This device's identity, made once and kept; the portal's public key is pinned on first contact. */
function loadState() {
  if (existsSync(stateFile)) return JSON.parse(readFileSync(stateFile, 'utf8'));
  const state = { server_uid: `sh-${randomUUID()}`, created_at: new Date().toISOString() };
  saveState(state);
  log(`New device identity ${state.server_uid} stored in ${stateFile}`);
  return state;
}

function saveState(state) {
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  chmodSync(stateFile, 0o600);
}

async function getJson(path, body) {
  const response = await fetch(`${portal}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${json.message ?? response.statusText}`);
  return json;
}

async function publicKey(state) {
  const { data } = await getJson('/api/license-server/public-key');
  if (state.key_id && state.key_id !== data.key_id) {
    console.error(`The portal's signing key changed (${state.key_id} → ${data.key_id}). Delete ${stateFile} if this is expected.`);
    process.exit(EXIT.UNTRUSTED);
  }
  if (!state.key_id) saveState(Object.assign(state, { key_id: data.key_id, public_key_pem: data.public_key_pem }));
  return createPublicKey(state.public_key_pem);
}

/** Calls the activation API and accepts the answer only if it is signed by the portal and made for this very request. */
async function call(action, state, key) {
  const nonce = randomBytes(24).toString('base64url');
  const request = { license_key: licenseKey, server_uid: state.server_uid, nonce };
  if (action !== 'deactivate')
    Object.assign(request, { device_name: args.name, hostname: hostname(), product: 'StreamHub', version: 'license-test' });
  const { data } = await getJson(`/api/license-server/${action}`, request);
  const { signature, ...signed } = data;
  const authentic =
    typeof signature === 'string' && verify(null, Buffer.from(canonicalJson(signed)), key, Buffer.from(signature, 'base64'));
  if (
    !authentic ||
    signed.nonce !== nonce ||
    signed.server_uid !== state.server_uid ||
    signed.license_key !== licenseKey ||
    signed.action !== action
  ) {
    console.error(`UNTRUSTED answer to ${action}: bad signature or not made for this request. Stopping.`);
    process.exit(EXIT.UNTRUSTED);
  }
  return signed;
}

function describe(answer) {
  const license = answer.license;
  const seats = license
    ? ` · devices ${license.current_activations}/${license.max_activations} · expires ${license.expires_at.slice(0, 10)}`
    : '';
  return `${answer.code.padEnd(16)} ${answer.message}${license ? ` · ${license.product_name}${seats}` : ''}`;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function main() {
  const state = loadState();
  const key = await publicKey(state);
  log(`Portal ${portal}, license ${licenseKey}, device ${state.server_uid}`);

  if (args.deactivate) {
    const answer = await call('deactivate', state, key);
    log(describe(answer));
    process.exit(answer.code === 'DEACTIVATED' ? EXIT.OK : EXIT.REFUSED);
  }

  const activation = await call('activate', state, key);
  log(`activate  ${describe(activation)}`);
  if (!activation.valid) process.exit(EXIT.REFUSED);

  const intervalSeconds = Number(args.interval) > 0 ? Number(args.interval) : activation.heartbeat_seconds;
  const maxChecks = Number(args['max-checks']) || Infinity;
  log(`Validating every ${intervalSeconds} s (Ctrl+C to stop)`);
  for (let checks = 0; checks < maxChecks;) {
    await sleep(intervalSeconds * 1000);
    try {
      const answer = await call('validate', state, key);
      checks += 1;
      log(`validate  ${describe(answer)}`);
      if (STOP_CODES.has(answer.code)) {
        log(`The portal says ${answer.code}: this server may no longer run under license ${licenseKey}.`);
        process.exit(EXIT.REFUSED);
      }
    } catch (error) {
      // The portal being unreachable is not a verdict on the license: try again next time.
      log(`validate  failed: ${error.message}`);
    }
  }
  process.exit(EXIT.OK);
}

process.on('SIGINT', () => process.exit(EXIT.OK));
main().catch((error) => {
  console.error(`Error: ${error.message}`);
  process.exit(1);
});
