// Preloaded into a benchmarked process (NODE_OPTIONS=--require): prints its peak RSS on exit, so a
// bench can compare processes it did not write (the CLI, the forty-line script) on memory.
process.on('exit', () => process.stderr.write(`__maxrss=${process.resourceUsage().maxRSS}\n`));
