// How right the asset crosswalk is on the sandbox: every stream mirrored into a fresh SQLite file, then
// each v_asset_crosswalk link checked against the sandbox's truth (sb.assetLinks()). Per confidence
// threshold: links kept, how many are true (precision) and how many of the true links they hold (recall).
//   npx tsx bench/crosswalk.ts [--scale 1] [--seed 42] [--profile real]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { resolveStreams } from '../src/catalog/index.js';
import { createClient } from '../src/client/index.js';
import { openStore } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { startSandbox } from '../sandbox/index.js';
import { type CrosswalkLink, scoreCrosswalk } from '../test/analyst/crosswalk-truth.js';
import { MIRROR_SCHEMA } from '../src/mirror-schema/index.js';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    seed: { type: 'string', default: '42' },
    profile: { type: 'string', default: 'default' },
  },
});
async function main(): Promise<void> {
  const profile = args.profile === 'real' ? 'real' : 'default';
  const sb = await startSandbox({ scale: Number(args.scale), seed: Number(args.seed), profile });
  const dir = mkdtempSync(join(tmpdir(), 'ds-bench-crosswalk-'));
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}` });
  const fast = { requestsPerMinute: 100_000_000, concurrency: 16 };
  const client = createClient({
    baseUrl: sb.url,
    apiKey: sb.apiKey,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
  });
  try {
    const settings = syncSettings({});
    const views = sb.monitoring.views().map((v) => v.id);
    settings.monitoring.views = views;
    const run = await runSync({ client, store, logger: pino({ level: 'silent' }), settings, streams: resolveStreams(['all']) });
    if (run.outcome !== 'success') throw new Error(`sync: ${run.outcome}`);
    const rows = (await store.db.selectFrom('v_asset_crosswalk').selectAll().execute()) as unknown as CrosswalkLink[];
    const truth = new Map(sb.assetLinks().map((l) => [l.partnerId, l.v1AssetId]));
    for (const source of ['token_unlocks', 'monitoring']) {
      const of = rows.filter((r) => r.source === source);
      console.log(`${source}: ${of.length} assets, ${of.filter((r) => truth.get(r.source_asset_id) != null).length} truly on /v1`);
      console.table(scoreCrosswalk(of, truth).map((m) => ({ ...m, precision: m.precision.toFixed(3), recall: m.recall.toFixed(3) })));
    }
  } finally {
    await client.close();
    await store.close();
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
