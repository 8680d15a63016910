// Preloaded into every portal a benchmark starts (node --require): samples the server's own event-loop delay (ms beyond the sampling interval) with
// perf_hooks.monitorEventLoopDelay and writes it to BENCH_LOOP_FILE twice a second, so a benchmark can say how long
// the event loop was held while it ran (readLoopDelay in processes.mjs). Resetting it marks a phase's start.
const { monitorEventLoopDelay, createHistogram, PerformanceObserver } = require('node:perf_hooks');
const http = require('node:http');
const { writeFileSync, existsSync, renameSync, rmSync } = require('node:fs');

const file = process.env.BENCH_LOOP_FILE;
// Worker threads inherit the preload (their execArgv is the process's): only the main thread, the one that answers
// requests, is measured. A worker's loop (the SQLite checkpointer's waits, say) is no request's wait.
if (file && require('node:worker_threads').isMainThread) {
  // Each sample is the time between two 10 ms timer turns, so the delay is what exceeds 10 ms.
  const RESOLUTION_MS = 10;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // With BENCH_ANSWER_TIMES=1 (bench:validate), how long the server itself took over each answer: from its 'request'
  // event (head read) until the answer was handed to the kernel. A tail the client sees and this does not is the
  // machine's (requests waiting for the event loop, scheduling, the client). Not installed elsewhere: it costs a
  // listener an answer.
  const answers = createHistogram();
  if (process.env.BENCH_ANSWER_TIMES === '1') {
    const emit = http.Server.prototype.emit;
    http.Server.prototype.emit = function (event, request, response) {
      if (event === 'request') {
        const started = process.hrtime.bigint();
        response.once('finish', () => answers.record(Math.max(1, Number(process.hrtime.bigint() - started))));
      }
      return emit.apply(this, arguments);
    };
  }
  // Garbage collection's pauses of the main thread: the longest, and their total (a stall that is no work of ours).
  const gc = { max: 0, total: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.max = Math.max(gc.max, entry.duration);
      gc.total += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  // BENCH_LOOP_HOLDS=<file>: every hold of 100 ms or more is appended there with its wall-clock time and the process's
  // id, to be found in a CPU profile (BENCH_PROFILE_DIR) or beside a scheduled job's run. Diagnostic only.
  if (process.env.BENCH_LOOP_HOLDS) {
    const { appendFileSync } = require('node:fs');
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      const held = now - last - RESOLUTION_MS;
      last = now;
      if (held >= 100)
        appendFileSync(process.env.BENCH_LOOP_HOLDS, `${new Date().toISOString()} pid ${process.pid} held ${Math.round(held)} ms\n`);
    }, RESOLUTION_MS).unref();
  }
  const resetFile = `${file}.reset`;
  const write = () => {
    if (existsSync(resetFile)) {
      rmSync(resetFile, { force: true });
      histogram.reset();
      answers.reset();
      gc.max = gc.total = 0;
    }
    const ms = (ns) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
    const figures = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      count: histogram.count,
      gc: { max: Math.round(gc.max * 10) / 10, total: Math.round(gc.total) },
      answers: answers.count
        ? { p50: answers.percentile(50) / 1e6, p99: answers.percentile(99) / 1e6, max: answers.max / 1e6, count: answers.count }
        : null,
    };
    // Whole or not at all: a benchmark reading the file while it is written found it half written.
    writeFileSync(`${file}.tmp`, JSON.stringify(figures));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 500).unref();
  process.on('exit', write);
}
