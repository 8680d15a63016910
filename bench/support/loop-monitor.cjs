// Preloaded into every portal a benchmark starts (node --require): samples the server's own event-loop delay (ms beyond the sampling interval) with
// perf_hooks.monitorEventLoopDelay and writes it to BENCH_LOOP_FILE twice a second, so a benchmark can say how long
// the event loop was held while it ran (readLoopDelay in processes.mjs). Resetting it marks a phase's start.
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { writeFileSync, existsSync, rmSync } = require('node:fs');

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  // Each sample is the time between two 10 ms timer turns, so the delay is what exceeds 10 ms.
  const RESOLUTION_MS = 10;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const resetFile = `${file}.reset`;
  const write = () => {
    if (existsSync(resetFile)) {
      rmSync(resetFile, { force: true });
      histogram.reset();
    }
    const ms = (ns) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
    const figures = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      count: histogram.count,
    };
    writeFileSync(file, JSON.stringify(figures));
  };
  setInterval(write, 500).unref();
  process.on('exit', write);
}
