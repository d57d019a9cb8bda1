// @end-to-end
// v_streams says what `ds-mirror status` says, stream for stream, read as the analyst reads it (Python's
// sqlite3, psql): the live rows of each table as it is now (once, v_streams kept the count of the last
// run of each stream, so `assets-top` said 4,001 rows after a complete pass of `assets` had made them
// 4,548), every stream status lists (the receiver's `webhook-deliveries` too), 0 for a stream never
// run. Its tables are the catalog's, handed to the views (test/sync/add-a-list.test.ts adds one). A
// stream's last success is its run's time, by the run's clock (once the machine's, whatever clock the run had).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { allStreams } from '../../src/catalog/index.js';
import { startReceiver } from '../../src/receiver/index.js';
import { fullPassLater } from '../helpers/sync-later.js';
import { syncOnce } from '../helpers/mirror.js';
import { readerRows } from '../helpers/reader-queries.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const SECRET = 'whsec-streams-status-0123456789';

interface StatusRow {
  stream: string;
  rows: number;
  lastSuccess: string | null;
}

describe.each(dialects)('v_streams and status on %s', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;
  const cliOn = async (on: TestStore, ...args: string[]) => {
    const env = {
      ...process.env,
      DS_BASE_URL: sb.url,
      DS_API_KEY: sb.apiKey,
      DS_DB: on.url,
      DS_DB_SCHEMA: on.schema ?? '',
      DS_LOG_LEVEL: 'error',
    };
    const { stdout } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], { env, timeout: 170_000 });
    return stdout;
  };
  const cli = (...args: string[]) => cliOn(t, ...args);

  beforeAll(async () => {
    // Scale 0.2: about 400 assets, more than the top tier's 300 (3 classes of 100).
    sb = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 5 });
    t = await openTestStore(dialect);
    // The top tier first, then a complete pass: the table grows after the top tier's last run. Set-up in
    // this process (the engine a CLI sync runs): the status compared below is the spawned CLI's.
    await syncOnce(t.store, sb, ['assets-top']);
    await syncOnce(t.store, sb, ['assets', 'chains']);
    const receiver = await startReceiver({ store: t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    try {
      for (let i = 0; i < 3; i++) {
        const body = JSON.stringify(makeEnvelope());
        const tSec = Math.floor(Date.now() / 1000);
        const res = await request(receiver.url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(SECRET, body, tSec) },
        });
        await res.body.text();
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await receiver.close();
    }
  }, 300_000);
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it('every stream status lists, with its live rows now and its last success', async () => {
    const status = JSON.parse(await cli('status', '--json')) as StatusRow[];
    const view = readerRows(t, 'select stream, live_rows, last_success_at from v_streams order by stream');
    const asStatus = view.map((r) => ({
      stream: r.stream,
      rows: r.live_rows,
      lastSuccess: r.last_success_at === null ? null : new Date(String(r.last_success_at)).toISOString(),
    }));
    const fromStatus = status
      .map((s) => ({ stream: s.stream, rows: s.rows, lastSuccess: s.lastSuccess === null ? null : new Date(s.lastSuccess).toISOString() }))
      .sort((a, b) => (a.stream < b.stream ? -1 : 1));
    expect(asStatus).toEqual(fromStatus);

    const rows = new Map(asStatus.map((s) => [s.stream, s.rows]));
    expect(rows.get('assets-top')).toBe(sb.records('assets').length);
    expect(rows.get('assets-top')).toBeGreaterThan(300); // more than the top tier read
    expect(rows.get('webhook-deliveries')).toBe(3);
    expect(rows.get('glossary')).toBe(0); // never run
  });

  it('on a mirror never synced: every stream status lists, each with 0 rows and no success', async () => {
    const fresh = await openTestStore(dialect);
    try {
      await fresh.store.close(); // made (migrated) and never synced
      const status = (JSON.parse(await cliOn(fresh, 'status', '--json')) as StatusRow[]).map((s) => [s.stream, s.rows, s.lastSuccess]);
      const view = readerRows(fresh, 'select stream, live_rows, last_success_at from v_streams').map((r) => [
        r.stream,
        r.live_rows,
        r.last_success_at,
      ]);
      const byStream = (a: unknown[], b: unknown[]) => (String(a[0]) < String(b[0]) ? -1 : 1);
      expect(view.sort(byStream)).toEqual(status.sort(byStream));
      expect(view.length).toBe(allStreams().length + 1); // and webhook-deliveries
      expect(view.every(([, rows, success]) => rows === 0 && success === null)).toBe(true);
    } finally {
      await fresh.cleanup();
    }
  });

  it("a stream's last success is when its run ended by the run's clock, not the machine's", async () => {
    // A pass as if six hours from now (test/helpers/sync-later.ts injects the run's clock).
    const [glossary] = await fullPassLater(t.store, sb, ['glossary'], 6);
    expect(glossary?.outcome).toBe('success');
    const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
    const stream = await t.store.db
      .selectFrom('v_streams')
      .select(['last_success_at', 'last_run_id'])
      .where('stream', '=', 'glossary')
      .executeTakeFirstOrThrow();
    const runRow = await t.store.db
      .selectFrom('v_runs')
      .select(['started_at', 'finished_at'])
      .where('run_id', '=', Number(stream.last_run_id))
      .executeTakeFirstOrThrow();
    const [started, success, finished] = [runRow.started_at, stream.last_success_at, runRow.finished_at].map(iso);
    expect(Date.parse(started!)).toBeGreaterThan(Date.now() + 5 * 3_600_000);
    expect([started! <= success!, success! <= finished!]).toEqual([true, true]);
  });
});
