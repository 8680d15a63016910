#!/usr/bin/env node
// A before/after pair: the figures of two result directories (BENCH_RESULTS_DIR of each run), side by side.
//   node bench/compare.mjs <before dir> <after dir> [--tolerance 0.1]
// A figure is flagged WORSE when it moved more than the tolerance (default 10 %) the wrong way: the way away from its
// target (>= and > want more, <= and < want less), or, without a target, by its unit (rates and ratios want more,
// times and sizes less). Figures only one run has are listed apart. Exits 1 when any figure is worse.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [beforeDir, afterDir] = process.argv.slice(2).filter((arg, index, all) => !arg.startsWith('--') && all[index - 1] !== '--tolerance');
const toleranceAt = process.argv.indexOf('--tolerance');
const tolerance = toleranceAt > 0 ? Number(process.argv[toleranceAt + 1]) : 0.1;
if (!beforeDir || !afterDir || !Number.isFinite(tolerance)) {
  console.error('usage: node bench/compare.mjs <before dir> <after dir> [--tolerance 0.1]');
  process.exit(2);
}

function load(dir) {
  const figures = new Map();
  if (!existsSync(dir)) return figures;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    for (const text of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!text.trim()) continue;
      const line = JSON.parse(text);
      figures.set(`${line.bench} | ${line.figure}`, line);
    }
  }
  return figures;
}

const MORE_IS_BETTER = new Set(['×', 'req/s', 'rows/s', 'MB/s', '%', 'check']);
const LESS_IS_BETTER = new Set(['ms', 'µs', 's', 'MB']);
/** +1 when a higher value is better, -1 when a lower one is, 0 when neither can be said. */
function direction(line) {
  const op = line.target?.op;
  if (op === '>=' || op === '>') return 1;
  if (op === '<=' || op === '<') return -1;
  if (op) return 0;
  if (MORE_IS_BETTER.has(line.unit)) return 1;
  if (LESS_IS_BETTER.has(line.unit)) return -1;
  return 0;
}

const before = load(beforeDir);
const after = load(afterDir);
const rows = [];
let worse = 0;
for (const [key, line] of after) {
  const old = before.get(key);
  if (!old) continue;
  const way = direction(line);
  const change = typeof old.value === 'number' && typeof line.value === 'number' && old.value !== 0 ? line.value / old.value - 1 : null;
  const flagged = change !== null && way !== 0 && way * change < -tolerance;
  if (flagged) worse += 1;
  rows.push({ key, before: old.value, after: line.value, unit: line.unit, change, verdict: flagged ? 'WORSE' : line.pass === false ? 'misses target' : '' });
}
const percent = (change) => (change === null ? '—' : `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`);
for (const row of rows)
  console.log(`${row.key.padEnd(90)} ${String(row.before).padStart(12)} → ${String(row.after).padEnd(12)} ${row.unit.padEnd(6)} ${percent(row.change).padStart(9)}  ${row.verdict}`);
const onlyBefore = [...before.keys()].filter((key) => !after.has(key));
const onlyAfter = [...after.keys()].filter((key) => !before.has(key));
if (onlyBefore.length) console.log(`\nOnly before (${onlyBefore.length}):\n  ${onlyBefore.join('\n  ')}`);
if (onlyAfter.length) console.log(`\nOnly after (${onlyAfter.length}):\n  ${onlyAfter.join('\n  ')}`);
console.log(`\n${rows.length} figures in both runs; ${worse} worse by more than ${(tolerance * 100).toFixed(0)} %.`);
process.exit(worse ? 1 : 0);
