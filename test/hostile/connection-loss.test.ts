// @end-to-end
// A dropped PostgreSQL connection is an error, never a crash. The tool's backends are terminated again
// and again (pg_terminate_backend, as a restart or failover does) in a database of this test's own:
// a sync fails its streams cleanly and the next one completes the mirror; the daemon and its receiver
// stay up, answer every delivery (200 or 503, never a refused connection) and store each one once.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { exportRelation } from '../../src/export/export-relation.js';
import { configureJobs } from '../../src/scheduler/index.js';
import { startDaemon } from '../../src/mirror/daemon.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { RunResult } from '../../src/sync/engine.js';
import { fastClient, settings, silent, syncOnce } from '../helpers/mirror.js';
import { createOwnCopy, type OwnCopy } from '../helpers/own-copy.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

let own: OwnCopy;
let admin: pg.Client;
let url: string;
let schema: string;
let database: string;
/** The mirror, as the tool opens it, in the test's own database. */
const open = () => openStore({ migrations: MIRROR_SCHEMA, url, schema, logger: pino({ level: 'silent' }) });
/** A connection of the database's owner, never cut (its name is not the lease's), in the mirror's schema. */
async function ownerConnection(): Promise<pg.Client> {
  const owner = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await owner.connect();
  return owner;
}
let sandbox: Sandbox;

/** Terminates every backend of the test's database but the admin's, every `ms`, until stopped; counts them. */
function killer(ms: number): { stop(): Promise<number> } {
  let killed = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await admin.query(
        'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      );
      killed += rows[0].n;
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return killed;
    },
  };
}

beforeAll(async () => {
  own = await createOwnCopy('conn_loss');
  ({ admin, url, schema, name: database } = own);
  // Scale 0.1: a run of every /v1 list still lasts far longer than the 40 ms between cuts (a dozen lists,
  // 600 records; and the export's 200 assets, 5 rows a batch, than its 5 ms), at a tenth of scale 1's rows.
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 4 });
});
afterAll(async () => {
  await sandbox?.close();
  await own?.drop();
});

describe('connection loss on PostgreSQL', () => {
  it('a sync whose connections are cut fails its streams in one line each, and the next run completes the mirror', async () => {
    const store = await open();
    try {
      const kills = killer(40);
      const cut = await syncOnce(store, sandbox, ['v1'])
        .catch((e: unknown) => e)
        .finally(() => kills.stop().then((killed) => expect(killed).toBeGreaterThan(0)));
      // Either the run's own bookkeeping could not be written (one clean error naming the cause), or it
      // ran and each stream that lost its connection failed with one line; the process lives on.
      if (cut instanceof Error) expect(cut.message).toMatch(/the database server is unreachable/);
      else {
        const failed = (cut as RunResult).streams.filter((s) => s.outcome === 'failed');
        expect(failed.length).toBeGreaterThan(0); // the cuts landed inside the run (it is long enough)
        for (const s of failed) expect(s.error).toMatch(/the database server is unreachable/);
      }
      const again = await syncOnce(store, sandbox, ['v1']);
      expect(again.streams.filter((s) => s.outcome !== 'success')).toEqual([]);
      const chains = await store.db
        .selectFrom('chains')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(chains.n)).toBe(sandbox.records('chains').length);
    } finally {
      await store.close();
    }
  });

  it('a connection cut while a stream takes its lease fails that stream in one line; the others complete', async () => {
    // Deterministic where the killer above is a race: the backend that writes chains' lease ends itself.
    const store = await open();
    const owner = await ownerConnection();
    await owner.query(
      `create function cut_on_lease() returns trigger language plpgsql as $$ begin if new.name = 'sync:chains' then perform pg_terminate_backend(pg_backend_pid()); end if; return new; end $$`,
    );
    await owner.query('create trigger cut_on_lease before insert or update on leases for each row execute function cut_on_lease()');
    try {
      const cut = await syncOnce(store, sandbox, ['chains', 'glossary']);
      const byName = Object.fromEntries(cut.streams.map((s) => [s.stream, s]));
      expect(byName.chains.outcome).toBe('failed');
      expect(byName.chains.error).toMatch(/^cannot take the stream's lease: the database server is unreachable/);
      expect(byName.chains.error).not.toContain('\n');
      expect(byName.glossary.outcome).toBe('success');
      await owner.query('drop trigger cut_on_lease on leases');
      const again = await syncOnce(store, sandbox, ['chains']);
      expect(again.outcome).toBe('success');
    } finally {
      await owner.query('drop trigger if exists cut_on_lease on leases; drop function if exists cut_on_lease()');
      await owner.end();
      await store.close();
    }
  });

  it('a connection cut as a run records its results is replaced: the run ends recorded, its lease released', async () => {
    // The first write of each kind is cut and fails (a sequence is outside transactions: it counts the attempts).
    const store = await open();
    const owner = await ownerConnection();
    const cuts: [string, string][] = [
      ['sync_run_streams', 'before insert'],
      ['sync_runs', 'before update'],
      ['leases', 'before delete'],
    ];
    await owner.query(
      `create function cut_first() returns trigger language plpgsql as $$ begin
         if nextval(tg_argv[0]::regclass) = 1 then
           perform pg_terminate_backend(pg_backend_pid()); -- and fail the statement, whenever the signal lands
           raise exception using errcode = '57P01', message = 'terminating connection due to administrator command';
         end if;
         if tg_op = 'DELETE' then return old; end if; return new; end $$`,
    );
    for (const [table, when] of cuts) {
      await owner.query(`create sequence cut_${table}`);
      await owner.query(`create trigger cut_${table} ${when} on ${table} for each row execute function cut_first('cut_${table}')`);
    }
    try {
      const run = await syncOnce(store, sandbox, ['glossary']);
      expect(run.outcome).toBe('success');
      const attempts = await owner.query(
        `select (select last_value from cut_sync_run_streams) as streams, (select last_value from cut_sync_runs) as runs, (select last_value from cut_leases) as leases`,
      );
      expect(attempts.rows[0]).toEqual({ streams: '2', runs: '2', leases: '2' }); // each cut once, then written
      const recorded = await owner.query('select outcome, finished_at from sync_runs where id = $1', [run.runId]);
      expect(recorded.rows[0]).toEqual({ outcome: 'success', finished_at: expect.anything() });
      const streams = await owner.query('select stream, outcome from sync_run_streams where run_id = $1', [run.runId]);
      expect(streams.rows).toEqual([{ stream: 'glossary', outcome: 'success' }]);
      expect((await owner.query(`select name from leases where name like 'sync:%'`)).rows).toEqual([]);
    } finally {
      for (const [table] of cuts)
        await owner.query(`drop trigger if exists cut_${table} on ${table}; drop sequence if exists cut_${table}`);
      await owner.query('drop function if exists cut_first()');
      await owner.end();
      await store.close();
    }
  });

  it('an export whose connection is cut fails cleanly: no file, no .partial left behind', async () => {
    const store = await open();
    const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-export-loss-'));
    const file = join(dir, 'assets.csv');
    try {
      const kills = killer(5);
      const outcome = await exportRelation(store, { relation: 'assets', format: 'csv', file, batchRows: 5 })
        .then(() => 'complete')
        .catch((e: Error) => e.message)
        .finally(() => kills.stop());
      // Cut mid-way it fails; had it raced the kills to the end, the file would be whole.
      if (outcome === 'complete') expect(existsSync(file)).toBe(true);
      else expect([existsSync(file), outcome]).toEqual([false, expect.stringMatching(/terminat|unreachable|Connection/i)]);
      expect(existsSync(`${file}.partial`)).toBe(false);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the daemon and its receiver stay up: every delivery is answered, and each lands once when the database is back', async () => {
    const store: Store = await open();
    const client = fastClient(sandbox);
    const secret = 'whsec-connection-loss';
    const daemon = await startDaemon({
      store,
      client,
      logger: silent,
      settings: settings(),
      jobs: configureJobs(
        [{ name: 'tick', description: 'tick', schedule: '* * * * * *', streams: ['glossary'], mode: 'incremental' }],
        {},
        'UTC',
      ),
      http: { port: 0, host: '127.0.0.1' },
      receiver: { port: 0, host: '127.0.0.1', secrets: [secret] },
      stopTimeoutMs: 10_000,
    });
    try {
      // A dozen deliveries: each meets cuts (one every 25 ms, while a delivery under them takes hundreds of
      // ms to be answered 503); sixty said the same five times over, at some 30 s of the daemon's runs.
      const ids = Array.from({ length: 12 }, () => randomUUID());
      const post = async (i: number) => {
        const body = JSON.stringify(makeEnvelope({ id: ids[i] }));
        const res = await request(daemon.receiverUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(secret, body, Math.floor(Date.now() / 1000)) },
          body,
        });
        await res.body.text();
        return res.statusCode;
      };
      const kills = killer(25);
      const during: number[] = [];
      for (let i = 0; i < ids.length; i++) during.push(await post(i));
      expect(await kills.stop()).toBeGreaterThan(0);
      expect(during.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      // The sender retries what got 503: every delivery ends stored, once.
      for (let i = 0; i < ids.length; i++) if (during[i] !== 200) expect(await post(i)).toBe(200);
      const health = await request(`${daemon.url}/healthz`);
      expect(health.statusCode).toBe(200);
      await health.body.text();
      const stored = await store.db.selectFrom('webhook_deliveries').select('id').where('id', 'in', ids).execute();
      expect(stored.map((r) => String(r.id)).sort()).toEqual([...ids].sort()); // each once
    } finally {
      await daemon.stop();
      await client.close();
      await store.close();
    }
  });
});
