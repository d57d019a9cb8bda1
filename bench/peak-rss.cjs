// Preloaded into a benchmarked process (NODE_OPTIONS=--require): prints its peak RSS (KB) and the CPU time
// it used (µs, user + system, every thread) on exit, so a bench can compare processes it did not write (the
// CLI, the forty-line script) on memory and on work done, not only on wall time.
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write(`__maxrss=${usage.maxRSS}\n__cpu=${usage.userCPUTime + usage.systemCPUTime}\n`);
});
