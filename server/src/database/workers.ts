import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running `<name>.ts` of this folder: the compiled `.js` beside this file in a build, the TypeScript
 * source through ts-node where the server runs from source (the tests).
 */
export function startWorker(name: string, workerData: object): Worker {
  const compiled = join(__dirname, `${name}.js`);
  if (existsSync(compiled)) return new Worker(compiled, { workerData });
  return new Worker(join(__dirname, `${name}.ts`), { workerData, execArgv: ['--require', 'ts-node/register/transpile-only'] });
}
