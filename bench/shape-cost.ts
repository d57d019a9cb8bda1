// What watching the service's shape costs a first sync (src/sync/shape/): in one run, a first `sync v1` at a
// scale into a new SQLite file, timed (the shape watched, as every sync is), then the shape's own work over
// the same records, timed alone: every record observed field by field and its typed fields checked against a
// known shape, as the next pass does (the costlier case: a first pass has no types to check yet). The share
// is the second time over the first; the goal is under 3%.
//   npx tsx bench/shape-cost.ts [--scale 10] [--runs 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
import { startShape } from '../src/sync/shape/shape-record.js';
import { startSandboxProcess } from './sandbox-process.js';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '10' }, runs: { type: 'string', default: '3' } } });
const scale = Number(values.scale);
const runs = Number(values.runs);
const logger = createLogger('warn');
const streams = resolveStreams(['v1']);
const lists = streams.filter((s): s is ListStream => s.kind === 'list');
const fast = { requestsPerMinute: 1e9, concurrency: 16 };
const limits = { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast };
const sandbox = await startSandboxProcess(scale);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const syncs: number[] = [];
const shapes: number[] = [];
let records = 0;
for (let run = 0; run < runs; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-shape-bench-'));
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}`, logger });
  const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, limits });
  const settings = { ...syncSettings({}), mode: 'full' as const };
  const started = performance.now();
  await runSync({ client, store, logger, settings, streams });
  syncs.push((performance.now() - started) / 1000);
  await client.close();
  // The records as served (each table's raw), read once; only the shape's work is timed.
  const served = await Promise.all(
    lists.map(async (s) => ({
      stream: s,
      records: (await store.db.selectFrom(s.table).select('raw').execute()).map((r) => JSON.parse(String(r.raw)) as unknown),
    })),
  );
  const observers = await Promise.all(
    served.map((s) =>
      startShape(store, s.stream.name, s.stream, 'hold', { confirmed: false, afterHours: 6, now: new Date().toISOString() }),
    ),
  );
  const t0 = performance.now();
  served.forEach((s, i) => {
    for (const record of s.records) observers[i]!.take(record);
  });
  shapes.push((performance.now() - t0) / 1000);
  records = served.reduce((n, s) => n + s.records.length, 0);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
await sandbox.stop();

const sync = median(syncs);
const shape = median(shapes);
console.log(`## Watching the service's shape (bench/shape-cost.ts, scale ${scale}, median of ${runs})\n`);
console.log('| first `sync v1` (s) | records | the shape over them (s) | share of the sync |');
console.log('|---|---|---|---|');
console.log(`| ${sync.toFixed(2)} | ${records} | ${shape.toFixed(3)} | ${((shape / sync) * 100).toFixed(2)}% |`);
