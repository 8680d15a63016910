// wrk, the load generator of the benchmarks whose answers are larger than a few kB or whose latency is the figure:
// it costs a few microseconds per call, where a Node client costs more than many of the calls it measures.
import { execFileSync, spawn } from 'node:child_process';

/** Exits with a hint when wrk is missing (it prints its version and exits 1: only a missing binary is a problem). */
export function requireWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
  } catch (error) {
    if (error.code === 'ENOENT') {
      console.error('wrk is not installed (Debian: apt-get install -y wrk): the benchmark needs it.');
      process.exit(2);
    }
  }
}

/** Runs wrk with `args` (then `-H 'name: value'` per header, then `url`); resolves with everything it printed. */
export function wrk(args, headers, url) {
  const all = [...args];
  for (const [name, value] of Object.entries(headers)) all.push('-H', `${name}: ${value}`);
  all.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', all, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}
