// Whether the machine itself stalled during a measurement: an idle process beside the benchmark (stall-sentinel.cjs)
// measures its own event-loop delay, and /proc/stat the CPU time the hypervisor took away (steal). On the shared
// 2-core machines these benchmarks run on, every process was seen held 100-1,000 ms at the same instant, idle ones
// included; a server's tail in such a window is the machine's, not the server's.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Clock ticks of CPU time stolen so far (all CPUs), or null where /proc/stat has no such column. */
function stealTicks() {
  try {
    const steal = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/)[8];
    return steal === undefined ? null : Number(steal);
  } catch {
    return null;
  }
}

/**
 * Starts the idle process. `reset()` opens a window, `read()` tells what the window saw: the idle process's loop
 * delay (p99 and longest hold, ms) and the CPU time stolen (ms, at 100 ticks a second). `stop()` ends it.
 */
export async function machineStalls() {
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), 'stall-sentinel.cjs'), [], { stdio: 'ignore', execArgv: [] });
  // One question at a time: each answer goes to the oldest question waiting.
  const waiting = [];
  child.on('message', (answer) => waiting.shift()?.resolve(answer));
  child.on('exit', () => waiting.splice(0).forEach(({ reject }) => reject(new Error('the idle process ended'))));
  const ask = (message) =>
    new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      child.send(message);
    });
  let stealAtReset = stealTicks();
  await ask('read');
  return {
    async reset() {
      stealAtReset = stealTicks();
      await ask('reset');
    },
    async read() {
      const loop = await ask('read');
      const steal = stealTicks();
      return { ...loop, stealMs: steal === null || stealAtReset === null ? null : (steal - stealAtReset) * 10 };
    },
    stop() {
      child.disconnect();
    },
  };
}

/** A window's figures as a phrase for a benchmark's line. */
export function describeStalls({ p99, max, stealMs }) {
  return (
    `an idle process beside it: loop p99 ${p99.toFixed(1)} ms, held ≤ ${max.toFixed(0)} ms` +
    (stealMs === null ? '' : `, CPU stolen ${stealMs} ms`)
  );
}
