// The idle process of machine-stalls.mjs: it does nothing but keep a timer, so its event loop is held only while the
// machine does not run it (the other processes' CPU, the hypervisor taking the CPU away, a stall of the kernel).
const { monitorEventLoopDelay } = require('node:perf_hooks');

const RESOLUTION_MS = 5;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
const ms = (ns) => Math.max(0, ns / 1e6 - RESOLUTION_MS);

process.on('message', (message) => {
  if (message === 'reset') histogram.reset();
  process.send({ p99: ms(histogram.percentile(99)), max: ms(histogram.max) });
});
process.on('disconnect', () => process.exit(0));
