// @end-to-end
// `ds-mirror daemon` spawned as a user starts it, its /healthz polled from the spawn on both stores: the
// door opens before the store, every answer is 200 `starting` (saying what it waits for) or `ok`, and
// SIGTERM at the first answer, in the middle of the start, exits 0. On PostgreSQL, a server that refuses
// (a relay in front of the suite's server drops every connection) keeps it `starting`, one log line per
// attempt with a backoff, until the server is back and it says `ok`, and the same daemon, once started,
// is `degraded` with the reason while the server goes silent, and `ok` again when it answers; a server
// that says nothing from the start (the relay passes no bytes) keeps it `starting`, and SIGTERM still exits 0.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { DaemonHealth } from '../../src/mirror/index.js';
import { defaultJobs } from '../../src/scheduler/job-files.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { spawnDaemon, type SpawnedDaemon } from '../helpers/spawned-daemon.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from '../scheduler/scrape.js';
import { startCuttableTcp } from './cuttable-tcp.js';

const STOP_TIMEOUT_S = 10;
let sandbox: Sandbox;
let dir: string;
let config: string;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 10 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-daemon-start-'));
  config = join(dir, 'config.json');
  // The jobs wait for their schedules (never within a test): the start is what is watched.
  const yearly = Object.fromEntries(defaultJobs.map((j) => [j.name, { schedule: '0 0 1 1 *' }]));
  writeFileSync(config, JSON.stringify({ timezone: 'UTC', jobs: yearly, dbConnectTimeoutMs: 1_000, dbStatementTimeoutMs: 2_000 }));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function start(db: string[]): Promise<SpawnedDaemon> {
  const env = { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'info' };
  return spawnDaemon(['--config', config, ...db], env, {
    stopTimeoutS: STOP_TIMEOUT_S,
    daemonArgs: ['--no-receiver', '--run-at-start', 'none'],
  });
}

const dbOf = (t: TestStore, url = t.url) => (t.schema ? ['--db', url, '--db-schema', t.schema] : ['--db', url]);

/** Every answer until `until` says so, each checked: 200 and `starting` or `ok`. */
async function answersUntil(d: SpawnedDaemon, until: (h: DaemonHealth) => boolean): Promise<{ seen: DaemonHealth[]; last: DaemonHealth }> {
  const seen: DaemonHealth[] = [];
  const last = await waitFor('the answer', async () => {
    if (d.child.exitCode !== null) throw new Error(`the daemon exited with ${d.child.exitCode}: ${d.logs()}`);
    const answer = await d.probe();
    if (!answer) return undefined;
    expect(answer.status).toBe(200);
    seen.push(answer.body);
    return until(answer.body) ? answer.body : undefined;
  });
  return { seen, last };
}

for (const dialect of dialects) {
  describe(`the daemon's start (${dialect})`, () => {
    // One mirror for every start below: a daemon that runs no job writes nothing another start reads.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    // On PostgreSQL through a relay, and the same start goes on: a server that refuses at first keeps it
    // `starting` (a log line per attempt, with a backoff) until it is back; once started, a server that goes
    // silent makes it `degraded` (the check given up at dbConnectTimeoutMs, 1 s here), and `ok` again after.
    it('answers `starting` or `ok` from its first answer (`starting` while a server refuses, a log line per attempt), `ok` once started (`degraded` with the reason while a server says nothing, `ok` after), and exits 0 on SIGTERM', async () => {
      const relay = dialect === 'postgres' ? await startCuttableTcp(t.url) : undefined;
      relay?.set('cut');
      const d = await start(dbOf(t, relay?.url));
      try {
        const seen: DaemonHealth[] = [];
        if (relay) {
          const refused = await answersUntil(d, () => (d.logs().match(/the daemon waits for its database/g) ?? []).length >= 2);
          seen.push(...refused.seen);
          expect(refused.last).toMatchObject({
            status: 'starting',
            waitingFor: expect.stringMatching(/^the database postgres:\/\/.*\(attempt \d+: .*unreachable/),
          });
          expect(d.logs()).toMatch(/"attempt":1,"retryInSeconds":1,/);
          expect(d.logs()).toMatch(/"attempt":2,"retryInSeconds":2,/);
          relay.set('pass');
        }
        seen.push(...(await answersUntil(d, (h) => h.status === 'ok')).seen);
        expect(new Set(seen.map((h) => h.status))).toSatisfy((s: Set<string>) => [...s].every((x) => x === 'starting' || x === 'ok'));
        for (const h of seen.filter((x) => x.status === 'starting')) expect(h.waitingFor).toMatch(/^the database\b/);
        if (relay) {
          relay.set('hold');
          const { last } = await answersUntil(d, (h) => h.status === 'degraded');
          expect(last.reasons).toEqual([expect.stringMatching(/^the database does not answer: .*no answer within 1 s/)]);
          relay.set('pass');
          await answersUntil(d, (h) => h.status === 'ok');
        }
        d.child.kill('SIGTERM');
        expect((await d.exited).code).toBe(0);
      } finally {
        d.kill();
        relay?.set('pass');
        await relay?.close();
      }
    });

    it('exits 0 on SIGTERM at its first answer, whatever its start is doing', async () => {
      const d = await start(dbOf(t));
      try {
        await answersUntil(d, () => true);
        d.child.kill('SIGTERM');
        expect((await d.exited).code).toBe(0);
      } finally {
        d.kill();
      }
    });

    // PostgreSQL's only: a SQLite file cannot refuse a connection or go silent as a server does.
    it.runIf(dialect === 'postgres')('says `starting` while the server says nothing, and exits 0 on SIGTERM', async () => {
      const relay = await startCuttableTcp(t.url);
      relay.set('hold');
      const d = await start(dbOf(t, relay.url));
      try {
        const { last } = await answersUntil(d, (h) => /attempt 1: .*does not answer/.test(h.waitingFor ?? ''));
        expect(last.status).toBe('starting');
        d.child.kill('SIGTERM');
        const exit = await d.exited;
        expect(exit.code).toBe(0);
        expect(d.logs()).toContain('daemon stopped during its start');
      } finally {
        d.kill();
        relay.set('pass');
        await relay.close();
      }
    });
  });
}
