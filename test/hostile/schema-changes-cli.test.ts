// @end-to-end
// The service changes its shape under the mirror, on both stores, against the sandbox's chaos `shape`
// changes: a new field is reported and the run stays green; a number sent as text and a Unix time sent as
// ISO text are coerced, and no typed value is lost; a required field gone fails the stream naming the
// field, holds no deletion and keeps the typed values; an object sent as a list sets its records aside and
// fails the stream. Monitoring events the same, inside the lists of an event too (its assets, its
// developments' times); an optional field gone or renamed keeps the rows as they were until the operator
// confirms. Fan-outs and development details are watched the same way. Each change is one row of
// v_schema_changes. As a user meets it (bin/ds-mirror.js in a child process): the run whose summary says a
// fan-out's and the details' changes; `status` and `status --json` say them too, run by the CLI's main in
// this process (the same command and output; their process's door is renamed-keys-cli's and
// slow-drain-cli's). The runs whose outcome is read from the
// result and the mirror run in this process (the summary's lines for a failed or held stream, exit 5 and
// 4, are shape-contracts-cli's; --confirm-deletions' way to the run is renamed-keys-cli's); each changes
// two streams at once (a run judges its streams one by one).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { Registry } from 'prom-client';
import { registerMirrorMetrics } from '../../src/observability/mirror-metrics.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { mirrorEnv, readWithShellTool } from '../helpers/cli-user.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { NO_DETAILS, settings, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import type { StreamRunStats } from '../../src/store/index.js';
import type { SyncSettings } from '../../src/sync/context.js';

const run = promisify(execFile);

/** Node's MaxListenersExceededWarning on a long first sync is another issue's (41, item 6), not this file's. */
function withoutListenerWarnings(stderr: string): string {
  return stderr.replace(/^\(node:\d+\) MaxListenersExceededWarning.*\n|^\(Use `node --trace-warnings.*\n/gm, '');
}

const QUIET = { ...settings().monitoring, details: NO_DETAILS };
/**
 * The CLI's pace lifted (no family's pace is watched here: family-stop's): at the default pace a fan-out of 20
 * and a batch of details wait out ~0.1 and ~0.3 s a request, most of this file's wall.
 */
const FAST = { requestsPerMinute: 1_000_000, concurrency: 8 };
const UNPACED = { v1: FAST, charts: FAST, monitoring: FAST };
/** Development details fetched per run: a batch is judged on its records as a page is. */
const DETAILS_PER_RUN = 5;

interface Change {
  stream: string;
  path: string;
  kind: string;
  seen_type: string;
  outcome: string;
  records: number;
}

for (const dialect of dialects) {
  describe(`the service changes its shape (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;

    async function cli(args: string[], config: object = {}): Promise<{ code: number; stdout: string; stderr: string }> {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ limits: UNPACED, ...config }));
      const env = {
        ...process.env,
        DS_BASE_URL: sandbox.url,
        DS_API_KEY: sandbox.apiKey,
        DS_DB: t.url,
        DS_DB_SCHEMA: t.schema ?? '',
        DS_CONFIG: file,
        DS_LOG_LEVEL: 'error',
      };
      try {
        const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], { env, timeout: 120_000 });
        return { code: 0, stdout, stderr: withoutListenerWarnings(stderr) };
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    }

    /** `ds-mirror <args>` on this mirror, no configuration file, run by the CLI's main in this process. */
    const statusInProcess = (args: string[]) => cliInProcess(args, mirrorEnv(sandbox, t));

    /** Non-null values of each typed column of a view: what a dashboard reads. */
    async function typed(view: string, columns: readonly string[]): Promise<Record<string, number>> {
      const counts = columns.map((c) => `count(${c}) as ${c}`).join(', ');
      const { rows } = await sql.raw<Record<string, unknown>>(`select ${counts} from ${view}`).execute(t.store.db);
      return Object.fromEntries(columns.map((c) => [c, Number(rows[0]![c])]));
    }

    async function changes(stream: string): Promise<Change[]> {
      const { rows } = await sql<Change>`select stream, path, kind, seen_type, outcome, records from v_schema_changes
        where stream = ${stream} order by path, kind`.execute(t.store.db);
      return rows.map((r) => ({ ...r, records: Number(r.records) }));
    }

    const ASSET_COLUMNS = ['title', 'price_usd', 'updated_at', 'market_cap_rank'] as const;
    const EVENTS = '/monitoring/v2/events';
    const TOP_20 = ['--select', 'assets=top:20'];

    /** What a dashboard reads of the events, each count read with sqlite3 or psql: typed columns and child rows. */
    function eventValues(): Record<string, number> {
      const [row] = readWithShellTool(
        t,
        `select count(title), count(started_at), count(updated_at), count(development_count),
          (select count(*) from monitoring_event_assets), (select count(started_at) from monitoring_developments where deleted_at is null)
         from v_events`,
      );
      const names = ['title', 'started_at', 'updated_at', 'development_count', 'event_assets', 'development_started_at'];
      return Object.fromEntries(names.map((n, i) => [n, Number(row![i])]));
    }

    /** The stream's changes as `path kind seen outcome`, read with sqlite3 or psql. */
    function changeLines(stream: string): string[] {
      return readWithShellTool(
        t,
        `select path, kind, seen_type, outcome from v_schema_changes where stream = '${stream}' order by path, kind, seen_type`,
      ).map((r) => r.filter((v) => v !== '').join(' '));
    }

    /** A full run in this process, no development details fetched: each stream's result, in order. */
    const fullRun = async (streams: string[], extra: Partial<SyncSettings> = {}) =>
      (await syncOnce(t.store, sandbox, streams, { settings: { mode: 'full', monitoring: QUIET, ...extra } })).streams;
    const outcomes = (results: StreamRunStats[]) => results.map((r) => [r.stream, r.outcome]);

    const markets = () => readWithShellTool(t, 'select count(*), count(volume_24h), count(updated_at) from asset_markets')[0]!.map(Number);

    /** What the mirror held before the service changed: the typed values every case below keeps. */
    let assetsBefore: Record<string, number>;
    let eventsBefore: Record<string, number>;
    let marketsBefore: number[];

    beforeAll(async () => {
      // 0.05: 100 assets and 100 events, a page of each list: a change is judged on a page, and every
      // record of the page carries it.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-shape-cli-'));
      // The mirror before the service changes, synced in this process (the first sync is not what is
      // tested; every change below is told to the CLI): the shape each stream's first pass learns.
      const monitoring = { ...settings().monitoring, details: { minimumImportance: 'high', maxAgeDays: 30, maxPerRun: 0 } } as const;
      const learnt = await syncOnce(t.store, sandbox, ['assets', 'monitoring-events'], { settings: { mode: 'full', monitoring } });
      const parents = await syncOnce(t.store, sandbox, ['asset-markets'], { settings: { selection: { assets: { top: 20 } }, monitoring } });
      expect([...learnt.streams, ...parents.streams].map((s) => s.outcome)).toEqual(['success', 'success', 'success']);
      assetsBefore = await typed('v_assets', ASSET_COLUMNS);
      expect(assetsBefore.price_usd).toBeGreaterThan(0);
      expect(assetsBefore.updated_at).toBeGreaterThan(0);
      eventsBefore = eventValues();
      for (const n of Object.values(eventsBefore)) expect(n).toBeGreaterThan(0);
      marketsBefore = markets();
      expect(marketsBefore[0]).toBe(20);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('fan-outs and development details are watched: a number as text and a time in the other form coerced, a new field reported', async () => {
      // Development details: a first batch (in this process) learns their shape, the next comes changed.
      const details = { minimumImportance: 'not-important', maxAgeDays: null, maxPerRun: DETAILS_PER_RUN } as const;
      const fetched = () =>
        readWithShellTool(t, 'select count(*), count(created_at) from monitoring_developments where detail_fetched_at is not null')[0]!.map(
          Number,
        );
      await syncOnce(t.store, sandbox, ['monitoring-events'], { settings: { monitoring: { ...settings().monitoring, details } } });
      expect(fetched()).toEqual([DETAILS_PER_RUN, DETAILS_PER_RUN]);
      sandbox.setChaos({
        shape: [
          { path: '/v1/assets/', kind: 'add', field: 'liquidity_score', value: 3 },
          { path: '/v1/assets/', kind: 'numberAsString', field: 'volume_24h' },
          { path: '/v1/assets/', kind: 'unixAsIso', field: 'updated_at' },
          { path: '/monitoring/v2/developments/', kind: 'isoAsUnix', field: 'createdAt' },
          { path: '/monitoring/v2/developments/', kind: 'add', field: 'sourceCount', value: 2 },
        ],
      });
      const changed = await cli(['sync', 'asset-markets', 'monitoring-events', ...TOP_20, '--no-progress'], { monitoring: { details } });
      sandbox.setChaos(null);
      expect([changed.code, changed.stderr]).toEqual([0, '']);
      expect(changed.stdout).toMatch(/the service changed shape: .*new field liquidity_score/);
      expect(changed.stdout).toMatch(
        new RegExp(
          `the service changed shape in its details: createdAt came as number in ${DETAILS_PER_RUN} records \\(coerced\\), new field sourceCount`,
        ),
      );
      expect(markets()).toEqual(marketsBefore);
      expect(changeLines('asset-markets')).toEqual([
        'liquidity_score new number reported',
        'updated_at other type string coerced',
        'volume_24h other type string coerced',
      ]);
      expect(fetched()).toEqual([2 * DETAILS_PER_RUN, 2 * DETAILS_PER_RUN]);
      expect(changeLines('monitoring-events/details')).toEqual(['createdAt other type number coerced', 'sourceCount new number reported']);
    });

    // Each run below changes the shape of two streams at once: a run's streams are judged one by one, and
    // each stream's outcome is read from the run's summary and the mirror, so one process shows both.
    it('a new field, a number as text, a time in the other form (assets; events and their developments): success, reported, no typed value lost', async () => {
      const assets = sandbox.records('assets').length;
      sandbox.setChaos({
        shape: [
          { path: '/v1/assets', kind: 'add', field: 'risk_score', value: 0.25 },
          { path: '/v1/assets', kind: 'numberAsString', field: 'price.usd' },
          { path: '/v1/assets', kind: 'unixAsIso', field: 'updated_at' },
          { path: EVENTS, kind: 'add', field: 'riskLevel', value: 'low' },
          { path: EVENTS, kind: 'numberAsString', field: 'developmentCount' },
          { path: EVENTS, kind: 'isoAsUnix', field: 'startedAt' },
          { path: EVENTS, kind: 'isoAsUnix', field: 'updatedAt' },
          { path: EVENTS, kind: 'isoAsUnix', field: 'developments[].startedAt' },
        ],
      });
      const changed = await fullRun(['assets', 'monitoring-events']);
      sandbox.setChaos(null);
      expect(outcomes(changed)).toEqual([
        ['assets', 'success'],
        ['monitoring-events', 'success'],
      ]);
      expect(await typed('v_assets', ASSET_COLUMNS)).toEqual(assetsBefore);
      expect(eventValues()).toEqual(eventsBefore);
      expect(await changes('assets')).toEqual([
        {
          stream: 'assets',
          path: 'price.usd',
          kind: 'other type',
          seen_type: 'string',
          outcome: 'coerced',
          records: assetsBefore.price_usd,
        },
        { stream: 'assets', path: 'risk_score', kind: 'new', seen_type: 'number', outcome: 'reported', records: assets },
        {
          stream: 'assets',
          path: 'updated_at',
          kind: 'other type',
          seen_type: 'string',
          outcome: 'coerced',
          records: assetsBefore.updated_at,
        },
      ]);
      expect(changeLines('monitoring-events')).toEqual([
        'developmentCount other type string coerced',
        'developments[].startedAt other type number coerced',
        'riskLevel new string reported',
        'startedAt other type number coerced',
        'updatedAt other type number coerced',
      ]);

      // Said where an operator looks: status, /metrics (status --json: the last test). `status` shows the
      // newest ten of the 13 changes in the lines `schema --changes` prints (one changeLine; that command's
      // own run is webhook-shape-cli's) and points there for the rest.
      const status = await statusInProcess(['status']);
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^Changes of the service's shape \(v_schema_changes\):$/m);
      expect(status.stdout).toMatch(/^- assets: new field risk_score \(number, e\.g\. 0\.25\), \d+ records \(100%\): reported; /m);
      expect(status.stdout.split('\n').filter((l) => l.startsWith('- assets: ')).length).toBe(3);
      expect(status.stdout).toMatch(/^- assets: price\.usd came as string where it was number \(e\.g\. "\d/m);
      expect(status.stdout).toMatch(/^\(3 more: ds-mirror schema --changes\)$/m);
      const registry = new Registry();
      registerMirrorMetrics(registry, t.store);
      expect(await registry.metrics()).toMatch(/^ds_mirror_schema_changes\{stream="assets",kind="new",outcome="reported"\} 1$/m);
    });

    it("a required field gone (assets' title, events' startedAt): each stream fails naming it, no deletion held, the typed values stay", async () => {
      sandbox.setChaos({
        shape: [
          { path: '/v1/assets', kind: 'remove', field: 'title' },
          { path: EVENTS, kind: 'remove', field: 'startedAt' },
        ],
      });
      const [assets, events] = await fullRun(['assets', 'monitoring-events']);
      sandbox.setChaos(null);
      expect([assets!.outcome, assets!.error]).toEqual([
        'failed',
        expect.stringMatching(/^assets: required field "title" missing in \d+ of \d+ records of a page: the service changed shape/),
      ]);
      expect([events!.outcome, events!.error]).toEqual([
        'failed',
        expect.stringMatching(
          /^monitoring-events: required field "startedAt" missing in \d+ of \d+ records of a page: the service changed shape/,
        ),
      ]);
      expect([assets!.held ?? 0, events!.held ?? 0]).toEqual([0, 0]);
      expect(await typed('v_assets', ASSET_COLUMNS)).toEqual(assetsBefore);
      expect(eventValues()).toEqual(eventsBefore);
      expect((await changes('assets')).find((c) => c.path === 'title')).toMatchObject({ kind: 'missing', outcome: 'failed' });
      expect(readWithShellTool(t, 'select count(*) from held_deletions')).toEqual([['0']]);
    });

    it("an object sent as a list (assets' price, an event's assets): its records set aside, each stream fails naming it, nothing lost", async () => {
      sandbox.setChaos({
        shape: [
          { path: '/v1/assets', kind: 'objectAsArray', field: 'price' },
          { path: EVENTS, kind: 'objectAsArray', field: 'assets[]' },
        ],
      });
      const [assets, events] = await fullRun(['assets', 'monitoring-events']);
      sandbox.setChaos(null);
      expect([assets!.outcome, assets!.error]).toEqual([
        'failed',
        expect.stringMatching(/^assets: field "price" came as array where the mirror keeps object/),
      ]);
      expect([events!.outcome, events!.error]).toEqual([
        'failed',
        expect.stringMatching(
          /^monitoring-events: field "assets\[\]" came as array where the mirror keeps object .* in \d+ of \d+ records of a page/,
        ),
      ]);
      expect(await typed('v_assets', ASSET_COLUMNS)).toEqual(assetsBefore);
      expect(eventValues()).toEqual(eventsBefore);
      expect(changeLines('monitoring-events').filter((c) => /failed/.test(c))).toEqual([
        'assets[] other type array failed',
        'startedAt missing failed',
      ]);
    });

    it('events without their title and with updatedAt renamed, a fan-out without updated_at: held (values kept) until the operator confirms', async () => {
      sandbox.setChaos({
        shape: [
          { path: EVENTS, kind: 'remove', field: 'title' },
          { path: EVENTS, kind: 'rename', field: 'updatedAt', to: 'modifiedAt' },
          { path: '/v1/assets/', kind: 'remove', field: 'updated_at' },
        ],
      });
      const held = await fullRun(['monitoring-events', 'asset-markets'], { selection: { assets: { top: 20 } } });
      expect(outcomes(held)).toEqual([
        ['monitoring-events', 'success'],
        ['asset-markets', 'success'],
      ]);
      // The rows kept as they were: every event's, and the 20 markets'.
      expect(held.map((r) => r.heldRows)).toEqual([eventsBefore.title, 20]);
      expect((await changes('asset-markets')).find((c) => c.path === 'updated_at' && c.kind === 'missing')).toMatchObject({
        outcome: 'held',
        records: 20,
      });
      expect(eventValues()).toEqual(eventsBefore);
      expect(markets()).toEqual(marketsBefore);
      const heldLines = changeLines('monitoring-events').filter((c) => /held|modifiedAt/.test(c));
      expect(heldLines).toEqual(['modifiedAt new string reported', 'title missing held', 'updatedAt missing held']);

      const confirmed = await fullRun(['monitoring-events'], { confirmDeletions: true });
      sandbox.setChaos(null);
      expect(outcomes(confirmed)).toEqual([['monitoring-events', 'success']]);
      expect(eventValues()).toEqual({ ...eventsBefore, title: 0, updated_at: 0 });
      expect(changeLines('monitoring-events').filter((c) => /title|updatedAt missing/.test(c))).toEqual([
        'title missing emptied',
        'updatedAt missing emptied',
      ]);
    });

    it("status --json says each stream's changes, a fan-out's details as their part", async () => {
      const json = JSON.parse((await statusInProcess(['status', '--json'])).stdout) as {
        stream: string;
        schemaChanges: { path: string; part?: string }[];
      }[];
      const of = (stream: string) => json.find((r) => r.stream === stream)!.schemaChanges;
      expect(new Set(of('assets').map((c) => c.path))).toEqual(new Set(['price', 'price.usd', 'risk_score', 'title', 'updated_at']));
      const parts = of('monitoring-events').filter((c) => c.part === 'details');
      expect(parts.map((c) => c.path).sort()).toEqual(['createdAt', 'sourceCount']);
    });
  });
}
