// How fast the sandbox starts as it grows: startSandbox (the /v1 world and the monitoring service)
// and the monitoring service alone, at scale 1 (the baseline) and scale 50, median of 3 starts each,
// with the heap each start adds. Scale 50 should cost far less than 50 times scale 1, because
// records are generated on request, not up front. These timings used to be test assertions; on a
// shared machine they belong here. So do the heap bars at scale 50, once asserted by
// test/sandbox/server-scale.test.ts and monitoring-advance.test.ts (a scale-50 start cost each 2 CPU-s of
// the suite): startSandbox adds under 60 MiB of JS heap, the monitoring service alone under 150 MB of heap
// and array buffers. Exit code 1 if not. Run with NODE_OPTIONS=--expose-gc so that each start begins
// after a collection.
// Run: npx tsx bench/sandbox-startup.ts [--runs 3]
import { startSandbox } from '../sandbox/index.js';
import { createMonitoringService } from '../sandbox/monitoring/index.js';

const argRuns = Number(process.argv[process.argv.indexOf('--runs') + 1]);
const runs = process.argv.includes('--runs') && argRuns > 0 ? argRuns : 3;

interface Sample {
  ms: number;
  /** The JS heap and array buffers a start added, MiB. */
  heapMb: number;
  /** The JS heap alone, MiB. */
  jsHeapMb: number;
}

async function measure(start: () => Promise<{ close(): Promise<void> }>): Promise<Sample> {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const before = process.memoryUsage();
    const t0 = performance.now();
    const running = await start();
    const ms = performance.now() - t0;
    const after = process.memoryUsage();
    const jsHeapMb = (after.heapUsed - before.heapUsed) / 2 ** 20;
    samples.push({ ms, jsHeapMb, heapMb: jsHeapMb + (after.arrayBuffers - before.arrayBuffers) / 2 ** 20 });
    await running.close();
  }
  samples.sort((a, b) => a.ms - b.ms);
  return samples[Math.floor(samples.length / 2)];
}

const monitoring = (scale: number) => async () =>
  createMonitoringService({ seed: 42, scale, profile: 'default', apiKey: 'k', now: () => new Date('2025-06-01T12:00:00Z') });

/** What a row's bar is on, and the bar. */
type Bar = { on: 'jsHeapMb' | 'heapMb'; mb: number };
const rows: Array<[string, Sample, Sample, Bar]> = [
  [
    'startSandbox (/v1 world, monitoring, HTTP server)',
    await measure(() => startSandbox({ scale: 1 })),
    await measure(() => startSandbox({ scale: 50 })),
    { on: 'jsHeapMb', mb: 60 },
  ],
  ['monitoring service alone', await measure(monitoring(1)), await measure(monitoring(50)), { on: 'heapMb', mb: 150e6 / 2 ** 20 }],
];

console.log(`median of ${runs} starts; ratio = scale 50 / scale 1 (50 would mean generating everything up front)\n`);
console.log('| what | scale 1 ms | scale 50 ms | ratio | scale 50 JS heap added MiB | + array buffers MiB | bar MiB |');
console.log('|---|---|---|---|---|---|---|');
for (const [what, one, fifty, bar] of rows) {
  const figures = [one.ms, fifty.ms].map((ms) => ms.toFixed(0));
  const heaps = [fifty.jsHeapMb, fifty.heapMb].map((mb) => mb.toFixed(0));
  const barText = `${bar.mb.toFixed(0)} (${bar.on === 'jsHeapMb' ? 'JS heap' : 'with array buffers'})`;
  console.log(`| ${what} | ${figures.join(' | ')} | ${(fifty.ms / one.ms).toFixed(1)} | ${heaps.join(' | ')} | ${barText} |`);
  if (fifty[bar.on] >= bar.mb) process.exitCode = 1;
}
