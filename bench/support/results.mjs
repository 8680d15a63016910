// The results every benchmark leaves for bench/summary.mjs: one JSON object per line in bench/results/<bench>.json
// (gitignored), the file rewritten by each run of that benchmark. One line per figure:
//   {
//     "bench":   "downloads",                      the benchmark (file name without .mjs)
//     "figure":  "small-file downloads / node http", what was measured
//     "value":   0.93,                             the number (null when the run could not measure it)
//     "unit":    "×",                              ×, req/s, MB/s, ms, MB, %, count ... ("" for none)
//     "target":  { "op": ">=", "value": 0.8 },     op is one of >=, >, <=, <, ==, or "within" with value [low, high]
//                                                  (both included); null for a figure shown for context
//     "pass":    true,                             value against target (null without a target)
//     "ceiling": "nginx 106,723 req/s",            optional: the load generator's or machine's limit beside it
//     "note":    "within 10 % of the ceiling",     optional: anything the reader needs to judge the figure
//     "at":      "2026-11-25T16:00:00.000Z"        when the figure was recorded
//   }
// Usage:  const results = benchResults('downloads'); results.add({ figure, value, unit, target, ceiling, note }); results.save();
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '../results');

const COMPARE = {
  '>=': (a, b) => a >= b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '<': (a, b) => a < b,
  '==': (a, b) => a === b,
  within: (a, [low, high]) => a >= low && a <= high,
};

/** Whether `value` meets `target` ({op, value}); null without a target or a value. */
export function meets(value, target) {
  if (!target || value === null || value === undefined || Number.isNaN(value)) return null;
  const compare = COMPARE[target.op];
  if (!compare) throw new Error(`Unknown target operator ${target.op}`);
  return compare(value, target.value);
}

/** The results of one benchmark run: add figures as they are measured, save once at the end (also after a failure). */
export function benchResults(bench) {
  const lines = [];
  return {
    add({ figure, value, unit = '', target = null, ceiling, note, pass }) {
      const line = { bench, figure, value: value ?? null, unit, target, pass: pass ?? meets(value, target), at: new Date().toISOString() };
      if (ceiling !== undefined) line.ceiling = ceiling;
      if (note !== undefined) line.note = note;
      lines.push(line);
      return line;
    },
    get lines() {
      return [...lines];
    },
    /** Writes bench/results/<bench>.json (replacing the previous run's). */
    save() {
      mkdirSync(RESULTS_DIR, { recursive: true });
      const file = join(RESULTS_DIR, `${bench}.json`);
      writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n') + (lines.length ? '\n' : ''));
      return file;
    },
  };
}
