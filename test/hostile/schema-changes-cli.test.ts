// @end-to-end
// The service changes its shape under the mirror, as a user meets it (bin/ds-mirror.js in a child process,
// on both stores, against the sandbox's chaos `shape` changes): a new field is reported and the run stays
// green; a number sent as text and a Unix time sent as ISO text are coerced, and no typed value is lost; a
// required field gone fails the stream with exit 5 naming the field, holds no deletion and keeps the typed
// values; an object sent as a list sets its records aside and fails the stream. Monitoring events the same,
// inside the lists of an event too (its assets, its developments' times); an optional field gone or renamed
// keeps the rows as they were until the operator confirms. Each change is one row of v_schema_changes.
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
import { readWithShellTool } from '../helpers/cli-user.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const run = promisify(execFile);

/** Node's MaxListenersExceededWarning on a long first sync is another issue's (41, item 6), not this file's. */
function withoutListenerWarnings(stderr: string): string {
  return stderr.replace(/^\(node:\d+\) MaxListenersExceededWarning.*\n|^\(Use `node --trace-warnings.*\n/gm, '');
}

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
      writeFileSync(file, JSON.stringify(config));
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
        const { stdout, stderr } = await run(process.execPath, ['bin/ds-mirror.js', ...args], { env, timeout: 120_000 });
        return { code: 0, stdout, stderr: withoutListenerWarnings(stderr) };
      } catch (error) {
        const e = error as { code: number; stdout: string; stderr: string };
        return { code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    }

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

    beforeAll(async () => {
      // 0.1: 200 assets and 200 events, two pages of each list: enough to judge a page, cheap to sync.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-shape-cli-'));
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const ASSET_COLUMNS = ['title', 'price_usd', 'updated_at', 'market_cap_rank'] as const;

    it('assets: a new field, a number as text and a Unix time as ISO text: exit 0, reported, no typed value lost', async () => {
      const first = await cli(['sync', 'assets', '--full', '--no-progress']);
      expect([first.code, first.stderr]).toEqual([0, '']);
      const before = await typed('v_assets', ASSET_COLUMNS);
      expect(before.price_usd).toBeGreaterThan(0);
      expect(before.updated_at).toBeGreaterThan(0);
      const assets = sandbox.records('assets').length;

      sandbox.setChaos({
        shape: [
          { path: '/v1/assets', kind: 'add', field: 'risk_score', value: 0.25 },
          { path: '/v1/assets', kind: 'numberAsString', field: 'price.usd' },
          { path: '/v1/assets', kind: 'unixAsIso', field: 'updated_at' },
        ],
      });
      const changed = await cli(['sync', 'assets', '--full', '--no-progress']);
      sandbox.setChaos(null);
      expect([changed.code, changed.stderr]).toEqual([0, '']);
      expect(changed.stdout).toMatch(/the service changed shape: .*new field risk_score/);
      expect(await typed('v_assets', ASSET_COLUMNS)).toEqual(before);
      const rows = await changes('assets');
      expect(rows).toEqual([
        { stream: 'assets', path: 'price.usd', kind: 'other type', seen_type: 'string', outcome: 'coerced', records: before.price_usd },
        { stream: 'assets', path: 'risk_score', kind: 'new', seen_type: 'number', outcome: 'reported', records: assets },
        { stream: 'assets', path: 'updated_at', kind: 'other type', seen_type: 'string', outcome: 'coerced', records: before.updated_at },
      ]);

      // Said where an operator looks: status (table and JSON), schema --changes, /metrics.
      const status = await cli(['status']);
      expect(status.stdout).toMatch(/^Changes of the service's shape \(v_schema_changes\):$/m);
      expect(status.stdout).toMatch(/^- assets: new field risk_score \(number, e\.g\. 0\.25\), \d+ records \(100%\): reported; /m);
      const json = JSON.parse((await cli(['status', '--json'])).stdout) as { stream: string; schemaChanges: { path: string }[] }[];
      expect(
        json
          .find((r) => r.stream === 'assets')!
          .schemaChanges.map((c) => c.path)
          .sort(),
      ).toEqual(['price.usd', 'risk_score', 'updated_at']);
      const listed = await cli(['schema', '--changes']);
      expect([listed.code, listed.stdout.trim().split('\n').length]).toEqual([0, 3]);
      expect(listed.stdout).toMatch(/^assets: price\.usd came as string where it was number \(e\.g\. "\d/m);
      const registry = new Registry();
      registerMirrorMetrics(registry, t.store);
      expect(await registry.metrics()).toMatch(/^ds_mirror_schema_changes\{stream="assets",kind="new",outcome="reported"\} 1$/m);
    });

    it('assets: a required field gone: exit 5 naming it, no deletion held, the typed values stay', async () => {
      const before = await typed('v_assets', ASSET_COLUMNS);
      sandbox.setChaos({ shape: [{ path: '/v1/assets', kind: 'remove', field: 'title' }] });
      const gone = await cli(['sync', 'assets', '--full', '--no-progress']);
      sandbox.setChaos(null);
      expect(gone.code).toBe(5);
      expect(gone.stdout).toMatch(
        /failed: assets: required field "title" missing in \d+ of \d+ records of a page: the service changed shape/,
      );
      expect(gone.stdout).not.toMatch(/held back/);
      expect(await typed('v_assets', ASSET_COLUMNS)).toEqual(before);
      expect((await changes('assets')).find((c) => c.path === 'title')).toMatchObject({ kind: 'missing', outcome: 'failed' });
      const { rows } = await sql<{ n: number }>`select count(*) as n from held_deletions`.execute(t.store.db);
      expect(Number(rows[0]!.n)).toBe(0);
    });

    it('assets: an object sent as a list: its records set aside, the stream fails, the prices stay', async () => {
      const before = await typed('v_assets', ASSET_COLUMNS);
      sandbox.setChaos({ shape: [{ path: '/v1/assets', kind: 'objectAsArray', field: 'price' }] });
      const listed = await cli(['sync', 'assets', '--full', '--no-progress']);
      sandbox.setChaos(null);
      expect(listed.code).toBe(5);
      expect(listed.stdout).toMatch(/assets: field "price" came as array where the mirror keeps object/);
      expect(await typed('v_assets', ASSET_COLUMNS)).toEqual(before);
    });

    const NO_DETAILS = { monitoring: { details: { maxPerRun: 0 } } };
    const EVENTS = '/monitoring/v2/events';

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

    it('monitoring events: a new field, a number as text, times as Unix seconds (in the event and its developments): exit 0, no typed value lost', async () => {
      const first = await cli(['sync', 'monitoring-events', '--full', '--no-progress'], NO_DETAILS);
      expect([first.code, first.stderr]).toEqual([0, '']);
      const before = eventValues();
      for (const n of Object.values(before)) expect(n).toBeGreaterThan(0);
      sandbox.setChaos({
        shape: [
          { path: EVENTS, kind: 'add', field: 'riskLevel', value: 'low' },
          { path: EVENTS, kind: 'numberAsString', field: 'developmentCount' },
          { path: EVENTS, kind: 'isoAsUnix', field: 'startedAt' },
          { path: EVENTS, kind: 'isoAsUnix', field: 'updatedAt' },
          { path: EVENTS, kind: 'isoAsUnix', field: 'developments[].startedAt' },
        ],
      });
      const changed = await cli(['sync', 'monitoring-events', '--full', '--no-progress'], NO_DETAILS);
      sandbox.setChaos(null);
      expect([changed.code, changed.stderr]).toEqual([0, '']);
      expect(changed.stdout).toMatch(/the service changed shape: .*developments\[\]\.startedAt came as number in \d+ records \(coerced\)/);
      expect(eventValues()).toEqual(before);
      expect(changeLines('monitoring-events')).toEqual([
        'developmentCount other type string coerced',
        'developments[].startedAt other type number coerced',
        'riskLevel new string reported',
        'startedAt other type number coerced',
        'updatedAt other type number coerced',
      ]);
    });

    it('monitoring events: an asset sent as a list, or the required startedAt gone: exit 5 naming the field, no deletion held, nothing lost', async () => {
      const before = eventValues();
      sandbox.setChaos({ shape: [{ path: EVENTS, kind: 'objectAsArray', field: 'assets[]' }] });
      const listed = await cli(['sync', 'monitoring-events', '--full', '--no-progress'], NO_DETAILS);
      expect(listed.code).toBe(5);
      expect(listed.stdout).toMatch(
        /monitoring-events: field "assets\[\]" came as array where the mirror keeps object .* in \d+ of \d+ records of a page/,
      );
      expect(eventValues()).toEqual(before);

      sandbox.setChaos({ shape: [{ path: EVENTS, kind: 'remove', field: 'startedAt' }] });
      const gone = await cli(['sync', 'monitoring-events', '--full', '--no-progress'], NO_DETAILS);
      sandbox.setChaos(null);
      expect(gone.code).toBe(5);
      expect(gone.stdout).toMatch(
        /monitoring-events: required field "startedAt" missing in \d+ of \d+ records of a page: the service changed shape/,
      );
      expect(gone.stdout).not.toMatch(/held back/);
      expect(eventValues()).toEqual(before);
      expect(readWithShellTool(t, 'select count(*) from held_deletions')).toEqual([['0']]);
      expect(changeLines('monitoring-events').filter((c) => /failed/.test(c))).toEqual([
        'assets[] other type array failed',
        'startedAt missing failed',
      ]);
    });

    it('monitoring events without their title, and with updatedAt renamed: held (exit 4, values kept) until the operator confirms', async () => {
      const before = eventValues();
      sandbox.setChaos({
        shape: [
          { path: EVENTS, kind: 'remove', field: 'title' },
          { path: EVENTS, kind: 'rename', field: 'updatedAt', to: 'modifiedAt' },
        ],
      });
      const held = await cli(['sync', 'monitoring-events', '--full', '--no-progress'], NO_DETAILS);
      expect(held.code).toBe(4);
      expect(held.stdout).toMatch(/title missing in \d+ records \(held\)/);
      expect(held.stdout).toMatch(/updatedAt missing in \d+ records \(held\)/);
      expect(held.stdout).toMatch(/new field modifiedAt/);
      expect(held.stdout).toMatch(/^rows kept as they were: [\d,]+ rows of monitoring-events came without a field they hold/m);
      expect(eventValues()).toEqual(before);
      const heldLines = changeLines('monitoring-events').filter((c) => /held|modifiedAt/.test(c));
      expect(heldLines).toEqual(['modifiedAt new string reported', 'title missing held', 'updatedAt missing held']);

      const confirmed = await cli(['sync', 'monitoring-events', '--full', '--no-progress', '--confirm-deletions'], NO_DETAILS);
      sandbox.setChaos(null);
      expect(confirmed.code).toBe(0);
      expect(eventValues()).toEqual({ ...before, title: 0, updated_at: 0 });
      expect(changeLines('monitoring-events').filter((c) => /title|updatedAt missing/.test(c))).toEqual([
        'title missing emptied',
        'updatedAt missing emptied',
      ]);
    });

    it('fan-outs and development details are watched: a detail record’s number as text and time as ISO text are coerced, a typed field gone is held', async () => {
      const markets = () =>
        readWithShellTool(t, 'select count(*), count(volume_24h), count(updated_at) from asset_markets')[0]!.map(Number);
      const select = ['--select', 'assets=top:20'];
      const first = await cli(['sync', 'asset-markets', ...select, '--no-progress']);
      expect([first.code, first.stderr]).toEqual([0, '']);
      const before = markets();
      expect(before[0]).toBe(20);
      sandbox.setChaos({
        shape: [
          { path: '/v1/assets/', kind: 'add', field: 'liquidity_score', value: 3 },
          { path: '/v1/assets/', kind: 'numberAsString', field: 'volume_24h' },
          { path: '/v1/assets/', kind: 'unixAsIso', field: 'updated_at' },
        ],
      });
      const changed = await cli(['sync', 'asset-markets', ...select, '--no-progress']);
      expect([changed.code, changed.stderr]).toEqual([0, '']);
      expect(changed.stdout).toMatch(/the service changed shape: .*new field liquidity_score/);
      expect(markets()).toEqual(before);
      expect(changeLines('asset-markets')).toEqual([
        'liquidity_score new number reported',
        'updated_at other type string coerced',
        'volume_24h other type string coerced',
      ]);
      sandbox.setChaos({ shape: [{ path: '/v1/assets/', kind: 'remove', field: 'updated_at' }] });
      const held = await cli(['sync', 'asset-markets', ...select, '--no-progress']);
      sandbox.setChaos(null);
      expect(held.code).toBe(4);
      expect(held.stdout).toMatch(/updated_at missing in 20 records \(held\)/);
      expect(markets()).toEqual(before);

      // Development details: a first batch learns their shape, the next comes with createdAt as Unix seconds.
      const details = { monitoring: { details: { minimumImportance: 'not-important', maxAgeDays: null, maxPerRun: 30 } } };
      const fetched = () =>
        readWithShellTool(t, 'select count(*), count(created_at) from monitoring_developments where detail_fetched_at is not null')[0]!.map(
          Number,
        );
      const learnt = await cli(['sync', 'monitoring-events', '--no-progress'], details);
      expect([learnt.code, learnt.stderr]).toEqual([0, '']);
      expect(fetched()).toEqual([30, 30]);
      sandbox.setChaos({
        shape: [
          { path: '/monitoring/v2/developments/', kind: 'isoAsUnix', field: 'createdAt' },
          { path: '/monitoring/v2/developments/', kind: 'add', field: 'sourceCount', value: 2 },
        ],
      });
      const drifted = await cli(['sync', 'monitoring-events', '--no-progress'], details);
      sandbox.setChaos(null);
      expect([drifted.code, drifted.stderr]).toEqual([0, '']);
      expect(drifted.stdout).toMatch(
        /the service changed shape in its details: createdAt came as number in 30 records \(coerced\), new field sourceCount/,
      );
      expect(fetched()).toEqual([60, 60]);
      expect(changeLines('monitoring-events/details')).toEqual(['createdAt other type number coerced', 'sourceCount new number reported']);
      const json = JSON.parse((await cli(['status', '--json'])).stdout) as {
        stream: string;
        schemaChanges: { path: string; part?: string }[];
      }[];
      const parts = json.find((r) => r.stream === 'monitoring-events')!.schemaChanges.filter((c) => c.part === 'details');
      expect(parts.map((c) => c.path).sort()).toEqual(['createdAt', 'sourceCount']);
    });
  });
}
