// An open-loop load: requests sent at a steady rate whatever the server's answers do, each one's latency taken from
// the moment it was due (not from when a free connection let it go), so a server that falls behind shows it in full
// rather than slowing the load down (no coordinated omission). autocannon's rate option is no such load: each
// connection sends as fast as it can until that second's share is used, then waits for the next second.
//
// The client is written on raw sockets (each request one prepared buffer, each answer read by its Content-Length):
// on 2 cores it shares the CPU with the server and its database, and node:http's client cost ~5 times as much per
// request, enough for its own event loop's stalls (up to 37 ms) to show in the tail it measured. Its own loop's delay
// is measured and returned beside the figures, so a tail that is the load generator's can be told apart.
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const HEADER_END = Buffer.from('\r\n\r\n');
/** Each sample of the event-loop histogram is the time between two timer turns this far apart; the delay is the rest. */
const LOOP_RESOLUTION_MS = 5;

/** A loop-delay sample (ns) as ms beyond the sampling interval. */
const loopDelay = (ns) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);

/** Reads HTTP/1.1 answers off one socket's bytes: status, Content-Length and `Connection: close`, then skips the body. */
class AnswerReader {
  buffered = Buffer.alloc(0);
  bodyLeft = -1;
  status = 0;
  closing = false;

  /** Feeds bytes; calls `answered(status, closing)` for each complete answer, `failed(reason)` for one it cannot read. */
  feed(chunk, answered, failed) {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      if (this.bodyLeft < 0) {
        const end = this.buffered.indexOf(HEADER_END);
        if (end < 0) return;
        const head = this.buffered.toString('latin1', 0, end);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (!length) return failed('an answer without Content-Length');
        this.status = Number(head.slice(9, 12));
        this.closing = /\r\nconnection:\s*close/i.test(head);
        this.bodyLeft = Number(length[1]);
        this.buffered = this.buffered.subarray(end + HEADER_END.length);
      }
      if (this.buffered.length < this.bodyLeft) return;
      this.buffered = this.buffered.subarray(this.bodyLeft);
      this.bodyLeft = -1;
      answered(this.status, this.closing);
    }
  }
}

/**
 * POSTs `body()` (or GETs what `get()` names) to `url` + `path` at `rate` requests a second for `seconds`, over at most `connections` kept-alive
 * connections (requests beyond them wait their turn, their wait counted). Resolves once every request is answered or
 * has failed: latency percentiles (ms), counts, the rate reached, and this process's own event-loop delay.
 */
export async function steadyLoad({ url, path, rate, seconds, connections, body, get }) {
  const target = new URL(path, url);
  const head = `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n`;
  /** A GET instead (`get()` gives its path and headers), e.g. the update API's. */
  const getBytes = () => {
    const { path: getPath, headers } = get();
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    return Buffer.from(`GET ${getPath} HTTP/1.1\r\nHost: ${target.host}\r\n${lines.join('')}\r\n`);
  };
  const total = Math.round(rate * seconds);
  const latencies = new Float64Array(total);
  const idle = [];
  const sockets = new Set();
  /** Requests due but not yet sent (no free connection): the time each was due. */
  const waiting = [];
  let sent = 0;
  let answered = 0;
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const start = performance.now();
  await new Promise((resolve) => {
    const done = () => {
      settled += 1;
      if (settled === total) resolve();
    };
    const write = (socket, due) => {
      socket.due = due;
      if (get) {
        socket.write(getBytes());
        return;
      }
      const payload = Buffer.from(body());
      socket.write(Buffer.concat([Buffer.from(`${head}Content-Length: ${payload.length}\r\n\r\n`), payload]));
    };
    const free = (socket) => {
      const due = waiting.shift();
      if (due === undefined) idle.push(socket);
      else write(socket, due);
    };
    const open = (due) => {
      const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
      const reader = new AnswerReader();
      sockets.add(socket);
      write(socket, due);
      const fail = () => {
        if (!sockets.delete(socket)) return;
        socket.destroy();
        const index = idle.indexOf(socket);
        if (index >= 0) idle.splice(index, 1);
        if (socket.due !== undefined) {
          errors += 1;
          done();
        }
        // Requests waiting for a connection get a new one (a server may close its connections, as while draining).
        if (waiting.length && sockets.size < connections) open(waiting.shift());
      };
      socket.on('data', (chunk) =>
        reader.feed(
          chunk,
          (status, closing) => {
            latencies[answered++] = performance.now() - socket.due;
            socket.due = undefined;
            if (status < 200 || status >= 300) non2xx += 1;
            done();
            // A connection the server closes takes no more requests (`fail` gives the waiting one a new one).
            if (!closing) free(socket);
          },
          fail,
        ),
      );
      socket.on('error', fail);
      socket.on('close', fail);
    };
    const send = (due) => {
      const socket = idle.pop();
      if (socket) write(socket, due);
      else if (sockets.size < connections) open(due);
      else waiting.push(due);
    };
    // Every millisecond, the requests due by then (each with the time it was due; the first is due at the start).
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      for (; sent < due; sent++) send(start + (sent * 1000) / rate);
      if (sent === total) clearInterval(timer);
    }, 1);
  });
  const elapsed = (performance.now() - start) / 1000;
  loop.disable();
  for (const socket of sockets) socket.destroy();
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
    clientLoop: { p99: loopDelay(loop.percentile(99)), max: loopDelay(loop.max) },
  };
}
