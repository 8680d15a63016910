#!/usr/bin/env node
// Lighthouse scores of the first pages: starts the built portal in production mode on a throwaway SQLite database,
// runs the pinned lighthouse@12.2.3 (12.x runs on Node 20) with Debian's Chromium against `/` and `/login`
// BENCH_ROUNDS times (default 3), and prints the median performance score, accessibility and best practices against
// the targets (performance >= 95, accessibility 100, best practices >= 95), with the metrics and what cost points.
// A benchmark that prints, not a test: simulated throttling makes performance vary by a few points between runs.
// The portal serves the web client's files precompressed (brotli or gzip twins written at build time), so the pages
// are measured as it serves them.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, killChildren, MAIN, median, requireBuiltServer, ROOT, start, stop, waitFor } from './support/processes.mjs';

const LIGHTHOUSE = 'lighthouse@12.2.3';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUTES = ['/', '/login'];
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 95 };
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
].join(' ');
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

requireBuiltServer();
if (!existsSync(join(ROOT, 'client/dist/index.html'))) {
  console.error('No client build in client/dist. Run `npm run build` first.');
  process.exit(1);
}

async function lighthouse(url, outputDir, round) {
  const report = join(outputDir, `report-${round}.json`);
  await promisify(execFile)(
    'npx',
    [
      '-y',
      LIGHTHOUSE,
      url,
      '--output=json',
      `--output-path=${report}`,
      '--only-categories=performance,accessibility,best-practices',
      `--chrome-flags=${CHROME_FLAGS}`,
      '--quiet',
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(readFileSync(report, 'utf8'));
}

/** Audits that cost points: failed binary audits (accessibility, best practices) and performance opportunities. */
function findings(report) {
  const lines = [];
  for (const [category, { auditRefs }] of Object.entries(report.categories)) {
    for (const { id, weight } of auditRefs) {
      const audit = report.audits[id];
      if (audit.score === null || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative') continue;
      const costsPoints =
        category === 'performance' ? audit.details?.type === 'opportunity' && audit.score < 0.9 : weight > 0 && audit.score < 1;
      if (costsPoints) lines.push(`${category}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
  }
  return lines;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-lighthouse-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const portal = start(process.execPath, [MAIN], {
    NODE_ENV: 'production',
    PUBLIC_URL: base,
    PAYMENT_PROVIDER: 'sandbox',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    LOG_LEVEL: 'warn',
  });
  let missed = 0;
  try {
    await waitFor('the portal', async () => (await fetch(`${base}/api/health`)).ok);
    console.log(`Lighthouse ${LIGHTHOUSE.split('@')[1]} (Chromium, mobile, simulated throttling), median of ${ROUNDS} runs per page`);
    for (const route of ROUTES) {
      const reports = [];
      for (let round = 0; round < ROUNDS; round++) reports.push(await lighthouse(`${base}${route}`, dataDir, round));
      const score = (category) => Math.round(median(reports.map((report) => report.categories[category].score * 100)));
      // The run whose performance score is the median speaks for the metrics and findings.
      const typical = [...reports].sort((a, b) => a.categories.performance.score - b.categories.performance.score)[Math.floor(ROUNDS / 2)];
      console.log(`\n${route}`);
      for (const [category, target] of Object.entries(TARGETS)) {
        const value = score(category);
        const met = value >= target;
        if (!met) missed++;
        console.log(
          `  ${met ? 'MET ' : 'MISS'}  ${category.padEnd(15)} ${String(value).padStart(3)} (target ${target === 100 ? '100' : `>= ${target}`})`,
        );
      }
      console.log(
        `  ${METRICS.map((id) => `${typical.audits[id].title.replace(/ \(.*\)$/, '')} ${typical.audits[id].displayValue}`).join(', ')}`,
      );
      for (const line of findings(typical)) console.log(`    - ${line}`);
    }
    console.log(`\n${missed ? `${missed} score(s) under target` : 'Every score meets its target'}.`);
  } finally {
    await stop(portal);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  killChildren();
  process.exit(1);
});
