// A small sandbox mirrored into a store the way an analyst's would be: every stream, some monitoring
// views (whose matches fill alert_history), then the sandbox's clock advanced and an incremental sync,
// so views, history and alerts all have rows. The same sandbox state can be mirrored into both stores;
// analystMirror() gives a copy of one such mirror on each, built once per run.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { monitoringParams } from '../../src/catalog/query-params.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { configureJobs } from '../../src/scheduler/configure-jobs.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { recordJobs } from '../../src/scheduler/record-jobs.js';
import { openStore, type Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { normaliseBaseUrl } from '../../src/sync/mirrored-service.js';
import { fastClient, settings, silent, syncOnce } from '../helpers/mirror.js';
import { databaseUrl, TEMPLATE_SCHEMA, withAdmin } from '../helpers/store-templates.js';
import { openTestStore, type StoreSource, type TestStore } from '../helpers/stores.js';

export const ALL_STREAMS = ['all'];

/** Started as a user starts it, without a start: its clock is now (the worked examples ask about now). */
export async function analystSandbox(): Promise<Sandbox> {
  return startSandbox({ scale: 0.15, seed: 11 }); // unpinned: the worked examples ask about now
}

export function viewIds(sb: Sandbox, n = 3): string[] {
  return sb.monitoring
    .views()
    .slice(0, n)
    .map((v) => v.id);
}

/** One sync of everything, with the first views configured. */
export async function syncAll(store: Store, sb: Sandbox, views = viewIds(sb)): Promise<void> {
  const result = await syncOnce(store, sb, ALL_STREAMS, {
    settings: { monitoring: { views, events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams() } },
  });
  if (result.outcome !== 'success')
    throw new Error(`fixture sync: ${result.outcome} ${JSON.stringify(result.streams.filter((s) => s.error))}`);
}

/** Values as both stores can be compared: booleans as 0/1, JSON parsed, Dates as ISO text. */
export function neutral(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && (value.startsWith('[') || value.startsWith('{'))) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** The advance between the shared mirror's two syncs (the worked examples' day: some rows of each kind changed). */
const DAY_OF_CHANGES = { seconds: 86_400, updateFraction: 0.02, addFraction: 0.01, removeFraction: 0.005 };
const SCALE = 0.15;
const SEED = 11;
const FANOUTS = ['asset-markets', 'asset-ohlcv', 'asset-price', 'asset-market-cap', 'asset-supply', 'asset-transparency'];

export interface AnalystMirror {
  /** A sandbox in the state the mirror was synced from (same start, seed and advance). */
  sb: Sandbox;
  lite: TestStore;
  pg: TestStore;
  /** Closes the sandbox and deletes both copies. */
  cleanup(): Promise<void>;
}

/**
 * A copy, on each store, of one mirror kept as an analyst's daemon keeps one: the jobs recorded, every
 * stream and the fan-outs of a few parents synced, the sandbox's clock advanced a day, everything synced
 * again, then a quiet monitoring run. Built once per run by the first file that asks (the others wait for
 * it) and copied per file: a file may write to its copies.
 */
export async function analystMirror(): Promise<AnalystMirror> {
  if (!inject('pgTemplate')) return ownAnalystMirror(); // a given server without CREATE DATABASE: nothing to copy
  const built = await sharedBuild();
  const sb = await startSandbox({ start: new Date(built.start), scale: SCALE, seed: SEED });
  await sb.advance(DAY_OF_CHANGES);
  const copies = [await openTestStore('sqlite', { copyOf: built }), await openTestStore('postgres', { copyOf: built })] as const;
  // The same service on another port: the copies hold this sandbox, so a file's own syncs are not refused.
  for (const t of copies)
    await t.store.db
      .updateTable('mirrored_service')
      .set({ base_url: normaliseBaseUrl(sb.url) })
      .execute();
  return withCleanup(sb, ...copies);
}

/**
 * A copy of the shared mirror's SQLite file alone, for a file that reads the file and syncs nothing: no
 * PostgreSQL database copied, no sandbox started.
 */
export async function analystSqliteMirror(): Promise<{ lite: TestStore; cleanup(): Promise<void> }> {
  if (!inject('pgTemplate')) {
    const own = await ownAnalystMirror();
    await own.pg.cleanup();
    return { lite: own.lite, cleanup: () => own.cleanup() };
  }
  const lite = await openTestStore('sqlite', { copyOf: await sharedBuild() });
  return { lite, cleanup: () => lite.cleanup() };
}

function withCleanup(sb: Sandbox, lite: TestStore, pg: TestStore): AnalystMirror {
  return {
    sb,
    lite,
    pg,
    async cleanup() {
      await lite.cleanup();
      await pg.cleanup();
      await sb.close();
    },
  };
}

/** The same mirror, built in this file's own stores. */
async function ownAnalystMirror(): Promise<AnalystMirror> {
  const sb = await startSandbox({ start: new Date(Math.floor(Date.now() / 1000) * 1000), scale: SCALE, seed: SEED });
  const [lite, pg] = [await openTestStore('sqlite'), await openTestStore('postgres')];
  await keepAsADaemon([lite.store, pg.store], sb);
  return withCleanup(sb, lite, pg);
}

/** What the mirror holds: see analystMirror. Leaves the sandbox advanced a day. */
async function keepAsADaemon(stores: readonly Store[], sb: Sandbox): Promise<void> {
  const jobs = configureJobs(defaultJobs, {}, 'UTC');
  for (const store of stores) await recordJobs(store, jobs, new Date());
  for (const store of stores) await syncAll(store, sb);
  for (const store of stores) await syncFanouts(store, sb);
  await sb.advance(DAY_OF_CHANGES);
  for (const store of stores) await syncAll(store, sb);
  for (const store of stores) await quietMonitoringRun(store, sb);
}

interface Built extends StoreSource {
  start: string;
}

/** The run's one build: the first caller makes the folder (atomic), builds and writes ready.json; others wait for it. */
async function sharedBuild(): Promise<Built> {
  // In the folder of the run's store templates, deleted with them when the run ends (global-setup.ts).
  const dir = join(dirname(inject('sqliteTemplate')), 'analyst-mirror');
  const ready = join(dir, 'ready.json');
  try {
    mkdirSync(dir);
  } catch {
    for (;;) {
      if (existsSync(ready)) return JSON.parse(readFileSync(ready, 'utf8')) as Built;
      if (existsSync(join(dir, 'failed')))
        throw new Error(`the shared analyst mirror failed to build: ${readFileSync(join(dir, 'failed'), 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    const built = await build(dir);
    writeFileSync(`${ready}.tmp`, JSON.stringify(built));
    renameSync(`${ready}.tmp`, ready);
    return built;
  } catch (err) {
    writeFileSync(join(dir, 'failed'), String((err as Error).stack ?? err));
    throw err;
  }
}

async function build(dir: string): Promise<Built> {
  const start = new Date(Math.floor(Date.now() / 1000) * 1000); // as a user's sandbox starts: now
  const sb = await startSandbox({ start, scale: SCALE, seed: SEED });
  const sqliteFile = join(dir, 'mirror.db');
  const pgDatabase = `${inject('pgPrefix')}_analyst`;
  await withAdmin(inject('pgUrl'), (admin) => admin.query(`create database ${pgDatabase} template ${inject('pgTemplate')}`));
  copyFileSync(inject('sqliteTemplate'), sqliteFile);
  const stores = [
    await openStore({ url: `sqlite:${sqliteFile}`, migrations: MIRROR_SCHEMA }),
    await openStore({ url: databaseUrl(inject('pgUrl'), pgDatabase), schema: TEMPLATE_SCHEMA, migrations: MIRROR_SCHEMA }),
  ];
  try {
    await keepAsADaemon(stores, sb);
  } finally {
    for (const store of stores) await store.close(); // SQLite's last connection checkpoints the WAL into the file
    await sb.close();
  }
  return { start: start.toISOString(), sqliteFile, pgDatabase };
}

/** The per-item endpoints of a few parents of each kind, so that their tables have rows too. */
async function syncFanouts(store: Store, sb: Sandbox): Promise<void> {
  const ids = async (table: string, column: string) =>
    (
      await sql.raw<{ v: unknown }>(`select ${column} as v from ${table} where deleted_at is null order by 1 limit 2`).execute(store.db)
    ).rows.map((r) => String(r.v));
  const projects = await ids('projects', 'slug');
  const fanouts = await syncOnce(store, sb, [...FANOUTS, 'project-chains', 'metric-series', 'chart-rows'], {
    settings: {
      selection: {
        assets: { top: 3 },
        projects: { ids: projects },
        metrics: { ids: await ids('metrics', 'identifier') },
        charts: { ids: await ids('charts', 'id') },
      },
      fanout: { metricProjects: projects },
    },
  });
  if (fanouts.outcome !== 'success') throw new Error(`fan-outs: ${fanouts.outcome}`);
}

/** A daemon's five-minute monitoring run, when nothing moved: the newest run, and a quiet one. */
export async function quietMonitoringRun(store: Store, sb: Sandbox): Promise<number> {
  const client = fastClient(sb);
  try {
    const { runId } = await runSync({
      client,
      store,
      logger: silent,
      // The fixture's monitoring settings (syncAll's), as the daemon runs with one configuration.
      settings: settings({
        monitoring: { views: viewIds(sb), events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams() },
      }),
      streams: resolveStreams(['monitoring-events']),
      job: 'monitoring-events',
    });
    return runId;
  } finally {
    await client.close();
  }
}
