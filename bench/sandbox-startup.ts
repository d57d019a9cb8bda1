// How fast the sandbox starts as it grows: startSandbox (the /v1 world and the monitoring service)
// and the monitoring service alone, at scale 1 (the baseline) and scale 50, median of 3 starts each,
// with the heap each start adds. Scale 50 should cost far less than 50 times scale 1, because
// records are generated on request, not up front. These timings used to be test assertions; on a
// shared machine they belong here.
// Run: npx tsx bench/sandbox-startup.ts [--runs 3]
import { startSandbox } from '../sandbox/index.js';
import { createMonitoringService } from '../sandbox/monitoring/index.js';

const argRuns = Number(process.argv[process.argv.indexOf('--runs') + 1]);
const runs = process.argv.includes('--runs') && argRuns > 0 ? argRuns : 3;

interface Sample {
  ms: number;
  heapMb: number;
}

async function measure(start: () => Promise<{ close(): Promise<void> }>): Promise<Sample> {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const heap = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const heap0 = heap();
    const t0 = performance.now();
    const running = await start();
    const ms = performance.now() - t0;
    samples.push({ ms, heapMb: (heap() - heap0) / 2 ** 20 });
    await running.close();
  }
  samples.sort((a, b) => a.ms - b.ms);
  return samples[Math.floor(samples.length / 2)];
}

const monitoring = (scale: number) => async () =>
  createMonitoringService({ seed: 42, scale, profile: 'default', apiKey: 'k', now: () => new Date('2025-06-01T12:00:00Z') });

const rows: Array<[string, Sample, Sample]> = [
  [
    'startSandbox (/v1 world, monitoring, HTTP server)',
    await measure(() => startSandbox({ scale: 1 })),
    await measure(() => startSandbox({ scale: 50 })),
  ],
  ['monitoring service alone', await measure(monitoring(1)), await measure(monitoring(50))],
];

console.log(`median of ${runs} starts; ratio = scale 50 / scale 1 (50 would mean generating everything up front)\n`);
console.log('| what | scale 1 ms | scale 50 ms | ratio | scale 50 heap + array buffers added MB |');
console.log('|---|---|---|---|---|');
for (const [what, one, fifty] of rows) {
  console.log(
    `| ${what} | ${one.ms.toFixed(0)} | ${fifty.ms.toFixed(0)} | ${(fifty.ms / one.ms).toFixed(1)} | ${fifty.heapMb.toFixed(0)} |`,
  );
}
