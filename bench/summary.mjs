#!/usr/bin/env node
// One table of every benchmark figure against its target, from the JSON lines the benchmarks leave in
// bench/results/<bench>.json (format: bench/support/results.mjs).
//   node bench/summary.mjs [bench ...]         the table (only these benchmarks; default every results file)
//   node bench/summary.mjs --run bench ...     runs bench/<bench>.mjs for each, in order (a missing script is
//                                              skipped with a note, a failing one does not stop the others), then
//                                              the table of those benchmarks: what `npm run bench` does
// Exits 1 when a figure misses its target or a benchmark failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_DIR } from './support/results.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const run = process.argv[2] === '--run';
const wanted = process.argv.slice(run ? 3 : 2);
const ranBadly = [];
if (run) {
  for (const bench of wanted) {
    const script = join(BENCH_DIR, `${bench}.mjs`);
    if (!existsSync(script)) {
      console.log(`\n=== ${bench}: bench/${bench}.mjs does not exist (yet); skipped ===`);
      continue;
    }
    console.log(`\n=== ${bench}: node bench/${bench}.mjs ===`);
    // A stale results file must not pass for this run's figures.
    rmSync(join(RESULTS_DIR, `${bench}.json`), { force: true });
    const { status, signal } = spawnSync(process.execPath, [script], { stdio: 'inherit' });
    if (status !== 0) ranBadly.push(`${bench} (${signal ?? `exit ${status}`})`);
  }
}

const files = existsSync(RESULTS_DIR)
  ? readdirSync(RESULTS_DIR)
      .filter((file) => file.endsWith('.json'))
      .sort()
  : [];
const lines = [];
const unreadable = [];
for (const file of files) {
  const bench = file.replace(/\.json$/, '');
  if (wanted.length && !wanted.includes(bench)) continue;
  for (const [index, text] of readFileSync(join(RESULTS_DIR, file), 'utf8').split('\n').entries()) {
    if (!text.trim()) continue;
    try {
      lines.push({ bench, ...JSON.parse(text) });
    } catch {
      unreadable.push(`${file}:${index + 1}`);
    }
  }
}
for (const bench of wanted)
  if (!lines.some((line) => line.bench === bench)) console.log(`(no results from ${bench}: it did not run or wrote none)`);
if (!lines.length) {
  console.log(`No benchmark results in ${RESULTS_DIR}. Run \`npm run bench\` (or one bench:* script) first.`);
  process.exit(ranBadly.length ? 1 : 0);
}

const number = (value) => {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'number') return String(value);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
};
const withUnit = (value, unit) =>
  unit === 'check' ? (value === 1 ? 'yes' : value === 0 ? 'no' : number(value)) : `${number(value)}${unit ? ` ${unit}` : ''}`;
const targetText = (line) => {
  if (!line.target) return '';
  if (line.unit === 'check') return 'yes';
  const { op, value } = line.target;
  return op === 'within' ? `${number(value[0])}-${withUnit(value[1], line.unit)}` : `${op} ${withUnit(value, line.unit)}`;
};
const verdict = (line) => (line.pass === true ? 'PASS' : line.pass === false ? 'FAIL' : '');

const rows = lines.map((line) => [
  line.bench,
  line.figure,
  withUnit(line.value, line.unit),
  targetText(line),
  verdict(line),
  [line.ceiling && `ceiling: ${line.ceiling}`, line.note].filter(Boolean).join('; '),
]);
const header = ['bench', 'figure', 'value', 'target', '', 'ceiling / note'];
const widths = header.map((title, column) =>
  Math.min(column === 1 ? 70 : 40, Math.max(title.length, ...rows.map((row) => row[column].length))),
);
const cell = (text, column) =>
  column === header.length - 1
    ? text
    : text.length > widths[column]
      ? `${text.slice(0, widths[column] - 1)}…`
      : text.padEnd(widths[column]);
const print = (row) => console.log(row.map(cell).join('  ').trimEnd());

console.log('\nBenchmark summary (bench/results/*.json):\n');
print(header);
print(widths.map((width) => '-'.repeat(width)));
rows.forEach(print);
const failed = lines.filter((line) => line.pass === false);
const oldest = lines.map((line) => line.at).sort()[0];
console.log(
  `\n${lines.filter((line) => line.pass === true).length} passed, ${failed.length} failed, ` +
    `${lines.filter((line) => line.pass === null || line.pass === undefined).length} shown for context; oldest figure from ${oldest}`,
);
if (unreadable.length) console.log(`Unreadable lines (not JSON): ${unreadable.join(', ')}`);
if (ranBadly.length) console.log(`Benchmarks that exited with a failure: ${ranBadly.join(', ')}`);
process.exit(failed.length || ranBadly.length ? 1 : 0);
