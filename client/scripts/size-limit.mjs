// Runs the checks of .size-limit.mjs through size-limit's JavaScript API and fails when one is over its limit.
// size-limit 12 is the line that supports Node 20, as the project's engines say (13 wants Node 22).
import filePlugin from '@size-limit/file';
import sizeLimit from 'size-limit';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import checks from '../.size-limit.mjs';

const UNITS = { B: 1, kB: 1000, KiB: 1024 };
const parseLimit = (limit) => {
  const [, value, unit] = /^([\d.]+) ?(B|kB|KiB)$/.exec(limit) ?? [];
  if (!unit) throw new Error(`unsupported limit ${limit}: use B, kB or KiB`);
  return Number(value) * UNITS[unit];
};

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const results = await sizeLimit([filePlugin], {
  checks: checks.map((check) => ({ ...check, files: check.path.map((file) => join(root, file)) })),
});

let over = 0;
checks.forEach((check, index) => {
  const { size } = results[index];
  const limit = parseLimit(check.limit);
  if (size > limit) over++;
  const kib = (value) => `${(value / 1024).toFixed(1)} KiB`;
  console.log(`${size > limit ? 'OVER' : 'ok  '}  ${check.name.padEnd(26)} ${kib(size).padStart(10)} gzip (limit ${check.limit})`);
});
process.exit(over ? 1 : 0);
