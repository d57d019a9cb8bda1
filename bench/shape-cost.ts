// What watching the service's shape costs a first sync (src/sync/shape/): in each run, a first `sync v1` at a
// scale into a new SQLite file, timed (the shape watched, as every sync is), then the shape's own work over
// the same records, timed alone `--reps` times: every record observed field by field and its typed fields
// checked against a known shape, as the next pass does (the costlier case: a first pass has fewer types to
// check). The share is the shape's time over the sync's, each run's own. Two shares: of the wall times (the
// goal, under 3%), and of the CPU time this process spent (the sync's and the shape's): a machine shared with
// other work stretches wall times unevenly (the sync waits on the sandbox's process, which shares the cores),
// CPU time much less, so the CPU share is the one that holds under load (and the stricter: the sync's CPU
// is less than its wall time). And the observer's time inside the sync itself, its calls timed one by one.
//   npx tsx bench/shape-cost.ts [--scale 10] [--runs 3] [--reps 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveStreams } from '../src/catalog/index.js';
import type { ListStream } from '../src/catalog/types.js';
import { createClient } from '../src/client/index.js';
import { createLogger } from '../src/logger.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';
import { openStore } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { PassShape } from '../src/sync/shape/pass-shape.js';
import { startShape } from '../src/sync/shape/shape-record.js';
import { startSandboxProcess } from './sandbox-process.js';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    reps: { type: 'string', default: '5' },
  },
});
const scale = Number(values.scale);
const runs = Number(values.runs);
const reps = Number(values.reps);
const logger = createLogger('warn');
const streams = resolveStreams(['v1']);
const lists = streams.filter((s): s is ListStream => s.kind === 'list');
const fast = { requestsPerMinute: 1e9, concurrency: 16 };
const limits = { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast };
const sandbox = await startSandboxProcess(scale);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU seconds this process spent since `from` (user and system, every thread). */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};

/**
 * Times the observer's calls inside `work` (a record taken, a page judged or held), call by call: its time in
 * the sync itself, among the sync's other work. Wall time, so the load stretches it as it stretches the
 * sync's wall time: compare the two. The clock's own cost, measured over as many calls of nothing, is taken off.
 */
async function timedInside(work: () => Promise<unknown>): Promise<number> {
  const methods = ['take', 'holdPage', 'judgePage', 'noteMissing'] as const;
  type Method = (this: unknown, a: unknown, b: unknown) => unknown;
  const proto = PassShape.prototype as unknown as Record<string, Method>;
  const originals = methods.map((m) => proto[m]!);
  let spent = 0;
  let calls = 0;
  const timed = (f: Method): Method =>
    function (a, b) {
      calls++;
      const t0 = performance.now();
      const result = f.call(this, a, b);
      spent += performance.now() - t0;
      return result;
    };
  methods.forEach((m, i) => {
    proto[m] = timed(originals[i]!);
  });
  try {
    await work();
  } finally {
    methods.forEach((m, i) => {
      proto[m] = originals[i]!;
    });
  }
  const inSync = { spent, calls };
  spent = 0;
  const nothing = timed(() => null);
  for (let k = 0; k < inSync.calls; k++) nothing.call(null, k, k);
  return Math.max(0, inSync.spent - spent) / 1000;
}

interface Run {
  syncWall: number;
  syncCpu: number;
  shapeWall: number;
  shapeCpu: number;
  inside: number;
  load: number;
}
const done: Run[] = [];
let records = 0;
for (let run = 0; run < runs; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-shape-bench-'));
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}`, logger });
  const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits });
  const settings = { ...syncSettings({}), mode: 'full' as const };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const inside = await timedInside(() => runSync({ client, store, logger, settings, streams }));
  const syncCpu = cpuSince(cpu);
  const syncWall = (performance.now() - started) / 1000;
  await client.close();
  // The records as served (each table's raw), read once; only the shape's work is timed.
  const served = await Promise.all(
    lists.map(async (s) => ({
      stream: s,
      records: (await store.db.selectFrom(s.table).select('raw').execute()).map((r) => JSON.parse(String(r.raw)) as unknown),
    })),
  );
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const gone = { confirmed: false, afterHours: 6, now: new Date().toISOString() };
    const observers = await Promise.all(served.map((s) => startShape(store, s.stream.name, s.stream, 'hold', gone)));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    served.forEach((s, i) => {
      for (const record of s.records) observers[i]!.take(record);
    });
    cpus.push(cpuSince(c0));
    walls.push((performance.now() - t0) / 1000);
  }
  done.push({ syncWall, syncCpu, shapeWall: median(walls), shapeCpu: median(cpus), inside, load: loadavg()[0]! });
  records = served.reduce((n, s) => n + s.records.length, 0);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
await sandbox.stop();

const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(2)}%`;
console.log(`## Watching the service's shape (bench/shape-cost.ts, scale ${scale}, ${records} records, the shape median of ${reps})\n`);
console.log(
  '| run | load (1 min) | first `sync v1` wall (s) | its CPU (s) | the shape wall (s) | its CPU (s) | share of wall | share of CPU | the shape inside the sync, wall (s) | its share of the sync’s wall |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
done.forEach((r, i) => {
  const cells = [r.load.toFixed(1), r.syncWall.toFixed(2), r.syncCpu.toFixed(2), r.shapeWall.toFixed(3), r.shapeCpu.toFixed(3)];
  console.log(
    `| ${i + 1} | ${cells.join(' | ')} | ${pct(r.shapeWall, r.syncWall)} | ${pct(r.shapeCpu, r.syncCpu)} | ${r.inside.toFixed(3)} | ${pct(r.inside, r.syncWall)} |`,
  );
});
const shares = (f: (r: Run) => number) => median(done.map(f));
console.log(
  `\nMedian shares: ${(shares((r) => r.shapeWall / r.syncWall) * 100).toFixed(2)}% of wall, ${(shares((r) => r.shapeCpu / r.syncCpu) * 100).toFixed(2)}% of CPU; inside the sync ${(shares((r) => r.inside / r.syncWall) * 100).toFixed(2)}% of its wall; the shape ${((shares((r) => r.shapeCpu) / records) * 1e6).toFixed(2)} µs of CPU a record.`,
);
