// An open-loop load: requests sent at a steady rate whatever the server's answers do, each one's latency taken from
// the moment it was due (not from when a free connection let it go), so a server that falls behind shows it in full
// rather than slowing the load down (no coordinated omission). autocannon's rate option is no such load: each
// connection sends as fast as it can until that second's share is used, then waits for the next second.
import { Agent, request } from 'node:http';

/**
 * POSTs `body()` to `url` + `path` at `rate` requests a second for `seconds`, over at most `connections` kept-alive
 * connections (requests beyond them wait their turn, their wait counted). Resolves once every request is answered or
 * has failed: latency percentiles (ms), counts, and the rate reached.
 */
export async function steadyLoad({ url, path, rate, seconds, connections, body }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(path, url);
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  let sent = 0;
  let answered = 0;
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  const start = performance.now();
  await new Promise((resolve) => {
    const done = () => {
      settled += 1;
      if (settled === total) resolve();
    };
    const send = (due) => {
      const payload = body();
      const call = request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
        (response) => {
          response.resume();
          response.on('end', () => {
            latencies[answered++] = performance.now() - due;
            if (response.statusCode < 200 || response.statusCode >= 300) non2xx += 1;
            done();
          });
        },
      );
      call.on('error', () => {
        errors += 1;
        done();
      });
      call.end(payload);
    };
    // Every millisecond, the requests due by then (each with the time it was due).
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000));
      for (; sent < due; sent++) send(start + (sent * 1000) / rate);
      if (sent === total) clearInterval(timer);
    }, 1);
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const sorted = latencies.subarray(0, answered).sort();
  const at = (share) => (answered ? sorted[Math.min(answered - 1, Math.floor(share * answered))] : NaN);
  return {
    sent,
    answered,
    non2xx,
    errors,
    rate: answered / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: answered ? sorted[answered - 1] : NaN,
  };
}
