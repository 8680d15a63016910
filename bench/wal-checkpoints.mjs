#!/usr/bin/env node
// WAL checkpoint benchmark: what SQLite's checkpoints cost the event loop under sustained writes. The built server's
// own PreparedSql writes a 25-row transaction (about 17 kB) every millisecond on the main thread, for
// BENCH_DURATION seconds (default 20), about 15 MB of log a second, in three child processes one after the other:
//   none        no checkpoints at all: the log grows without end (the baseline: what the writes alone cost the loop)
//   sqlite      SQLite's own, by the committing connection past 1,000 pages: on the event loop
//   portal      the portal's WalCheckpoints (a worker thread copies; past 64 MB it brings the log to its start,
//               holding the app's writes, not its event loop, for the last copy)
// Each prints the event loop's longest delay (perf_hooks.monitorEventLoopDelay), the longest write call (time on the
// loop) and the longest wait until a write was stored (a held write waits off the loop), and the log's largest size.
// Target: with the portal's checkpoints the loop is never held 50 ms, and the log stays bounded (smaller than the
// baseline's). BENCH_MAIN picks another build (see support/processes.mjs). Results go to bench/results/wal-checkpoints.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { describeStalls, machineStalls } from './support/machine-stalls.mjs';
import { MAIN, requireBuiltServer } from './support/processes.mjs';
import { benchResults } from './support/results.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const ROWS_PER_WRITE = 25;
const ROW_TEXT = 'x'.repeat(600);
const TARGET_LOOP_MS = 50;
const VARIANTS = ['none', 'sqlite', 'portal'];

/** One variant, in this process: writes for DURATION seconds, then prints its figures as one JSON line. */
async function measure(variant) {
  const built = createRequire(MAIN);
  const builtDir = dirname(MAIN);
  built('reflect-metadata');
  const { DataSource } = built('typeorm');
  const { PreparedSql } = built(join(builtDir, 'database/prepared-sql.js'));
  const { WalCheckpoints } = built(join(builtDir, 'database/wal-checkpoints.js'));
  const { dataSourceOptions } = built(join(builtDir, 'database/data-source-options.js'));
  const dir = mkdtempSync(join(tmpdir(), 'bench-wal-'));
  const file = join(dir, 'portal.sqlite');
  // Opened as the portal opens its file (WAL, busy timeout, synchronous, page cache), with none of its tables.
  const dataSource = new DataSource({ ...dataSourceOptions({ type: 'sqlite', path: file }), entities: [], migrations: [] });
  await dataSource.initialize();
  await dataSource.query('CREATE TABLE writes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, n INTEGER NOT NULL)');
  const connection = dataSource.driver.databaseConnection;
  const checkpoints = new WalCheckpoints(dataSource);
  if (variant === 'portal') checkpoints.onApplicationBootstrap();
  connection.pragma(`wal_autocheckpoint = ${variant === 'sqlite' ? 1000 : 0}`);
  const sql = PreparedSql.for(dataSource);
  const rows = Array.from({ length: ROWS_PER_WRITE }, (_, n) => [ROW_TEXT, n]);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let writes = 0;
  let longestCall = 0;
  let longestWait = 0;
  let largestLog = 0;
  const end = performance.now() + DURATION * 1000;
  while (performance.now() < end) {
    const started = performance.now();
    const written = sql.insertMany('writes', ['body', 'n'], rows);
    longestCall = Math.max(longestCall, performance.now() - started);
    await written;
    longestWait = Math.max(longestWait, performance.now() - started);
    writes++;
    if (writes % 100 === 0) largestLog = Math.max(largestLog, statSync(`${file}-wal`).size);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  loop.disable();
  await checkpoints.onApplicationShutdown();
  await dataSource.destroy();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      variant,
      writesPerSecond: writes / DURATION,
      loopMax: loop.max / 1e6,
      loopP99: loop.percentile(99) / 1e6,
      longestCall,
      longestWait,
      largestLogMB: largestLog / 1e6,
    }),
  );
}

async function main() {
  requireBuiltServer();
  const results = benchResults('wal-checkpoints');
  console.log(
    `WAL checkpoint benchmark: a ${ROWS_PER_WRITE}-row write every millisecond for ${DURATION} s per variant, Node ${process.version}`,
  );
  const figures = new Map();
  const machine = await machineStalls();
  for (const variant of VARIANTS) {
    await machine.reset();
    const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--variant', variant], { encoding: 'utf8' });
    const figure = JSON.parse(output.trim().split('\n').at(-1));
    figure.stalls = await machine.read();
    figures.set(variant, figure);
    console.log(
      `  ${variant.padEnd(7)} ${figure.writesPerSecond.toFixed(0).padStart(5)} writes/s   ` +
        `event loop held ≤ ${figure.loopMax.toFixed(1)} ms (delay p99 ${figure.loopP99.toFixed(1)})   longest write call ${figure.longestCall.toFixed(1)} ms, until stored ` +
        `${figure.longestWait.toFixed(1)} ms   log ≤ ${figure.largestLogMB.toFixed(0)} MB\n          ${describeStalls(figure.stalls)}`,
    );
  }
  machine.stop();
  const none = figures.get('none');
  const portal = figures.get('portal');
  const checks = [
    {
      figure: "event loop held at most, with the portal's checkpoints",
      value: Number(portal.loopMax.toFixed(1)),
      unit: 'ms',
      target: { op: '<', value: TARGET_LOOP_MS },
      note:
        `no checkpoints ${none.loopMax.toFixed(1)} ms, SQLite's own ${figures.get('sqlite').loopMax.toFixed(1)} ms; ` +
        `a write waited at most ${portal.longestWait.toFixed(1)} ms (off the loop)`,
    },
    {
      figure: "largest log with the portal's checkpoints / with none",
      value: Number((portal.largestLogMB / none.largestLogMB).toFixed(2)),
      unit: '×',
      target: { op: '<', value: 1 },
      note: `${portal.largestLogMB.toFixed(0)} MB against ${none.largestLogMB.toFixed(0)} MB after ${DURATION} s`,
    },
    {
      figure: "writes per second with the portal's checkpoints / with none",
      value: Number((portal.writesPerSecond / none.writesPerSecond).toFixed(2)),
      unit: '×',
      target: null,
    },
  ];
  console.log('Targets:');
  for (const check of checks) {
    const line = results.add(check);
    const verdict = line.pass === null ? '    ' : line.pass ? 'PASS' : 'FAIL';
    console.log(`  ${verdict}  ${check.figure.padEnd(60)} ${check.value} ${check.unit}   (${check.note ?? ''})`);
  }
  results.save();
  if (results.lines.some((line) => line.pass === false)) process.exitCode = 1;
}

const variantAt = process.argv.indexOf('--variant');
if (variantAt > 0) await measure(process.argv[variantAt + 1]);
else await main();
