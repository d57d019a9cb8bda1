// @end-to-end
// The service changes the shape of its webhook payloads under the receiver, as a user runs it (`ds-mirror
// receive` in a child process, the sandbox's chaos `shape` aimed at `/webhook`), on both stores. A new field
// and a time sent as Unix seconds: every delivery lands as before (the time taken as ISO text), each change
// one row of v_schema_changes. A required field gone and an object sent as a list: every delivery is
// acknowledged (the sender loses nothing), set aside whole with its reason and counted in alert_deliveries
// (state 'set aside'), reported; `ds-mirror backfill alerts` then brings their alerts and marks them completed.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { readWithShellTool } from '../helpers/cli-user.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from '../scheduler/scrape.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const BIN = resolve('bin/ds-mirror.js');
const SECRET = 'whsec-shape-0123456789abcdef';
const DAY = { seconds: 12 * 3600, updateFraction: 0.01, addFraction: 0.05, removeFraction: 0 };

interface Change {
  path: string;
  kind: string;
  outcome: string;
}

for (const dialect of dialects) {
  describe(`webhook payloads of another shape (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let receiver: ChildProcess;
    let views: string[];

    function env(): NodeJS.ProcessEnv {
      return {
        ...process.env,
        DS_CONFIG: '',
        DS_LOG_LEVEL: 'error',
        DS_BASE_URL: sandbox.url,
        DS_API_KEY: sandbox.apiKey,
        DS_DB: t.url,
        DS_DB_SCHEMA: t.schema ?? '',
        DS_MONITORING_VIEWS: views.join(','),
        DS_WEBHOOK_SECRETS: SECRET,
      };
    }

    async function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
      const child = spawn(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout!.on('data', (d) => (stdout += String(d)));
      child.stderr!.on('data', (d) => (stderr += String(d)));
      const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
      return { code, stdout, stderr };
    }

    async function changes(): Promise<Change[]> {
      const { rows } = await sql<Change>`select path, kind, outcome from v_schema_changes
        where stream = 'webhook-deliveries' order by path, kind`.execute(t.store.db);
      return rows;
    }

    const count = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(t.store.db)).rows[0]!.n);

    /** alert_deliveries' rows by state, read with sqlite3 or psql. */
    const pairsByState = () => readWithShellTool(t, 'select state, count(*) from alert_deliveries group by state order by state');

    /** One half-day of the service's changes, its webhooks sent and answered; returns the deliveries it sent. */
    async function day(): Promise<{ status: number | undefined; body: string }[]> {
      const before = sandbox.monitoring.deliveries().length;
      await sandbox.advance(DAY);
      await sandbox.monitoring.idle();
      const sent = sandbox.monitoring.deliveries().slice(before);
      expect(sent.length).toBeGreaterThan(0);
      return sent.map((d) => ({ status: d.attempts.at(-1)?.status, body: d.body }));
    }

    beforeAll(async () => {
      // 0.1: one view, about 70 deliveries a half-day: each change met by every one of them.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 5, webhooks: { timeFactor: 0.01 } });
      t = await openTestStore(dialect);
      views = sandbox.monitoring.views().map((v) => v.id);
      receiver = spawn(process.execPath, [...LAUNCHER_FLAGS, BIN, 'receive', '--port', '0'], {
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      receiver.stdout!.on('data', (d) => (out += String(d)));
      const url = await waitFor('the receiver to listen', () => /receiving webhooks at (\S+)/.exec(out)?.[1]);
      for (const id of views)
        sandbox.monitoring.setAlertPolicy(id, {
          cadence: 'immediately',
          delivery_types: ['webhook'],
          webhook_url: url,
          webhook_secret: SECRET,
        });
    }, 120_000);
    afterAll(async () => {
      if (receiver && receiver.exitCode === null) {
        const exited = new Promise((done) => receiver.on('exit', done));
        receiver.kill('SIGTERM');
        await exited;
      }
      await sandbox?.close();
      await t?.cleanup();
    });

    it('a new field and a time as Unix seconds: every delivery lands, its time taken as ISO text, each change reported once', async () => {
      sandbox.setChaos({
        shape: [
          { path: '/webhook', kind: 'add', field: 'data.latest_development.sentiment', value: 'negative' },
          { path: '/webhook', kind: 'isoAsUnix', field: 'timestamp' },
        ],
      });
      const sent = await day();
      sandbox.setChaos(null);
      expect(new Set(sent.map((d) => d.status))).toEqual(new Set([200]));
      const ids = new Set(sent.map((d) => JSON.parse(d.body).id as string));
      expect(await count('webhook_deliveries')).toBe(ids.size);
      expect(await count('webhook_set_aside')).toBe(0);
      expect(pairsByState()).toEqual([['read', String(sent.length)]]);
      // No value lost: each alert's match time is the delivery's Unix time, as ISO text.
      const alerts = await t.store.db.selectFrom('alert_history').select(['development_id', 'matched_at']).execute();
      const matched = new Map(alerts.map((a) => [a.development_id, new Date(a.matched_at as string).getTime()]));
      for (const d of sent) {
        const body = JSON.parse(d.body);
        expect(matched.get(body.data.latest_development.id)).toBe(body.timestamp * 1000);
      }
      expect(await changes()).toEqual([
        { path: 'data.latest_development.sentiment', kind: 'new', outcome: 'reported' },
        { path: 'timestamp', kind: 'other type', outcome: 'coerced' },
      ]);
      // Said where an operator looks: `schema --changes` (`status` shows the same rows of v_schema_changes,
      // each stream's in its row of `status --json`: schema-changes-cli).
      const listed = await cli(['schema', '--changes']);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(
        /^webhook-deliveries: new field data\.latest_development\.sentiment \(string, e\.g\. "negative"\), \d+ records \(100%\): reported; /m,
      );
    });

    it('a required field gone and an object sent as a list: acknowledged, set aside whole with the reason, completed by the backfill', async () => {
      const deliveries = await count('webhook_deliveries');
      const pairs = await count('alert_deliveries');
      sandbox.setChaos({
        shape: [
          { path: '/webhook', kind: 'remove', field: 'data.latest_development.title' },
          { path: '/webhook', kind: 'objectAsArray', field: 'data.view' },
        ],
      });
      const sent = await day();
      sandbox.setChaos(null);
      // Nothing the service sent is lost: every delivery answered 200 and stored byte for byte.
      expect(new Set(sent.map((d) => d.status))).toEqual(new Set([200]));
      expect(await count('webhook_deliveries')).toBe(deliveries);
      const aside = await t.store.db.selectFrom('webhook_set_aside').selectAll().execute();
      expect(new Set(aside.map((r) => r.body))).toEqual(new Set(sent.map((d) => d.body)));
      for (const row of aside) {
        expect(row.reason).toBe(
          'data.view came as array [2 item(s)] where the receiver needs object; data.latest_development.title missing',
        );
        expect([row.view_id, row.completed_at]).toEqual([null, null]);
        expect(row.development_id).toBe(JSON.parse(row.body).data.latest_development.id);
      }
      // Counted with the others: every delivery sent has its (delivery, view) pair, these 'set aside'.
      expect(pairsByState()).toEqual([
        ['read', String(pairs)],
        ['set aside', String(sent.length)],
      ]);
      expect((await changes()).filter((c) => c.outcome === 'set aside')).toEqual([
        { path: 'data.latest_development.title', kind: 'missing', outcome: 'set aside' },
        { path: 'data.view', kind: 'other type', outcome: 'set aside' },
      ]);

      const backfill = await cli(['backfill', 'alerts']);
      expect([backfill.code, backfill.stderr]).toEqual([0, '']);
      const after = await t.store.db.selectFrom('webhook_set_aside').select(['development_id', 'completed_at']).execute();
      const alerted = new Set(
        (await t.store.db.selectFrom('alert_history').select('development_id').execute()).map((a) => a.development_id),
      );
      const completed = after.filter((r) => r.completed_at !== null);
      // Completed exactly when the backfill brought the development's alert: nearly all of them (the
      // backfill finds at least 95% of what webhooks deliver, test/monitoring/backfill-matches-webhooks).
      expect(after.map((r) => r.completed_at !== null)).toEqual(after.map((r) => alerted.has(r.development_id)));
      expect(completed.length).toBeGreaterThanOrEqual(Math.ceil(after.length * 0.9));
      expect(backfill.stdout).toMatch(new RegExp(`; ${completed.length} webhook deliver(y|ies) set aside completed$`, 'm'));
    });
  });
}
