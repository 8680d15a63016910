#!/usr/bin/env node
// Sign-in timing benchmark: does a failed sign-in take as long for an address without an account as for an account
// with a wrong password (and for a registration of a taken address as for a new one)? A gap tells an attacker which
// addresses have accounts. Sends BENCH_LOGINS (default 40) sequential sign-ins of each kind to the built portal and
// prints the medians and their ratio; target: unknown / known between 0.8 and 1.25. The same for a password-reset
// request (POST /api/password/forgot) for an address with an account and one without.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, freePort, killChildren, MAIN, median, requireBuiltServer, start, stop, waitFor, portalEnv } from './support/processes.mjs';
import { benchResults } from './support/results.mjs';

const LOGINS = Number(process.env.BENCH_LOGINS ?? 40);
const ADMIN = { email: 'bench-admin@portal.test', password: 'bench-admin-password' };
const BAND = [0.8, 1.25];

requireBuiltServer();

async function timed(base, path, body) {
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, status: response.status };
}

async function series(base, path, bodyOf) {
  const times = [];
  const statuses = new Set();
  for (let i = 0; i < LOGINS; i++) {
    const { ms, status } = await timed(base, path, bodyOf(i));
    times.push(ms);
    statuses.add(status);
  }
  return { median: median(times), statuses: [...statuses].join(',') };
}

/**
 * Two series whose requests take turns in the order a, b, b, a, a, b, b, a …: each kind follows each kind equally
 * often, so whatever a request leaves running after its answer hits both alike. (Plain a, b, a, b put every b straight
 * after an a: the work an a leaves behind slowed only b.)
 */
async function alternating(base, path, first, second) {
  const results = [
    { times: [], statuses: new Set() },
    { times: [], statuses: new Set() },
  ];
  for (let i = 0; i < LOGINS; i++) {
    const turn = i % 2 === 0 ? [first, second] : [second, first];
    for (const bodyOf of turn) {
      const k = bodyOf === first ? 0 : 1;
      const { ms, status } = await timed(base, path, bodyOf(i));
      results[k].times.push(ms);
      results[k].statuses.add(status);
    }
  }
  return results.map(({ times, statuses }) => ({ median: median(times), statuses: [...statuses].join(',') }));
}

/** Figures for bench/summary.mjs (saved at the end, also after a failure). */
const results = benchResults('login-timing');

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-login-'));
  const port = await freePort();
  const portal = start(
    process.execPath,
    [MAIN],
    portalEnv(
      { port, dataDir, admin: ADMIN },
      {
        // Every attempt must reach the password check, not the throttle.
        THROTTLE_LOGIN_FAILURES_PER_IP: '100000',
        THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '10000',
        THROTTLE_REGISTRATIONS_PER_IP: '100000',
      },
    ),
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the portal', async () => (await fetch(`${base}/api/health`)).ok);
    // Warm-up: the first argon2 call of each kind allocates its memory.
    await series(base, '/api/login', () => ({ email: ADMIN.email, password: 'warm-up-wrong' }));
    const known = await series(base, '/api/login', (i) => ({ email: ADMIN.email, password: `wrong-password-${i}` }));
    const unknown = await series(base, '/api/login', (i) => ({ email: `nobody-${i}@portal.test`, password: `wrong-password-${i}` }));
    const registration = (email) => ({
      first_name: 'A',
      last_name: 'B',
      email,
      password: 'bench-pass-123',
      password_confirmation: 'bench-pass-123',
    });
    const registered = Array.from({ length: LOGINS }, (_, i) => `fresh-${i}-${randomBytes(3).toString('hex')}@portal.test`);
    const fresh = await series(base, '/api/register', (i) => registration(registered[i]));
    const taken = await series(base, '/api/register', () => registration(ADMIN.email));
    // One request per address (an address may ask for three reset mails per window), the two kinds taking turns:
    // the mail for an account is made after its answer, and would otherwise slow only the next request of its own kind.
    const [resetKnown, resetUnknown] = await alternating(
      base,
      '/api/password/forgot',
      (i) => ({ email: registered[i] }),
      (i) => ({ email: `nobody-reset-${i}@portal.test` }),
    );

    const rows = [
      ['sign-in, wrong password', known],
      ['sign-in, unknown address', unknown],
      ['register, new address', fresh],
      ['register, taken address', taken],
      ['reset, address with account', resetKnown],
      ['reset, unknown address', resetUnknown],
    ];
    console.log(`Sign-in timing: ${LOGINS} sequential requests each, median ms (statuses)`);
    for (const [name, result] of rows) console.log(`  ${name.padEnd(26)} ${result.median.toFixed(1).padStart(7)} ms  (${result.statuses})`);
    const ratios = [
      ['sign-in: unknown / wrong password', unknown.median / known.median, [unknown, known]],
      ['register: taken / new', taken.median / fresh.median, [taken, fresh]],
      ['reset request: unknown / known', resetUnknown.median / resetKnown.median, [resetUnknown, resetKnown]],
    ];
    let failed = false;
    for (const [name, ratio, [slower, faster]] of ratios) {
      const { pass } = results.add({
        figure: `${name} (median time)`,
        value: ratio,
        unit: '×',
        target: { op: 'within', value: BAND },
        note: `${slower.median.toFixed(2)} / ${faster.median.toFixed(2)} ms, ${LOGINS} requests each`,
      });
      failed ||= !pass;
      console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${name.padEnd(36)} ${ratio.toFixed(2)} (target ${BAND[0]}-${BAND[1]})`);
    }
    return failed ? 1 : 0;
  } finally {
    results.save();
    await stop(portal);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error);
    killChildren();
    process.exit(1);
  });
