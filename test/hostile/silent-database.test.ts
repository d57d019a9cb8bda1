// @end-to-end
// A database that stops answering fails `ds-mirror sync` (the CLI, a child process) with one line and exit
// 1 instead of hanging it: on PostgreSQL a server that keeps its sockets open and says nothing (a relay in
// front of the suite's server stops passing bytes, as a paused server or a partition does), before the
// run and in the middle of it; on SQLite another process holding the file's write lock. Once the
// database answers again, the next run completes. The bounds are the configured ones (1 s here, 250 ms for
// SQLite's lock: a run cut in the middle waits it out once for each write it tries; and a silent server's
// statement is given up its own bound after it, 1 s, not 10 as past a bound of 2 min). A run
// cut in the middle says each cause once (not once per stream whose result it could not record). The next
// run, that the mirror is whole again, runs in this process through the library's door (openMirror: the
// CLI's run, no process), over the same relay or file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from '../scheduler/scrape.js';
import { startCuttableTcp } from './cuttable-tcp.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import { libraryRun } from '../helpers/library-run.js';

const BOUNDS = { dbStatementTimeoutMs: 1_000, dbConnectTimeoutMs: 1_000, dbBusyTimeoutMs: 250 };
const unlimited = { requestsPerMinute: 1_000_000, concurrency: 8 };
/** What the run in the middle syncs: the assets it waits in, and small lists whose results it records too. */
const STREAMS = ['assets', 'chains', 'sectors', 'glossary'];

let sandbox: Sandbox;
let dir: string;
let config: string;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 9 }); // 150 tokens: a second page of them
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-silent-'));
  config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ ...BOUNDS, pageWindow: 1, limits: { v1: unlimited, charts: unlimited } }));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The database made silent and made to answer again, and the --db the CLI is given. */
interface Silencer {
  db: string[];
  silence(): Promise<void>;
  speak(): Promise<void>;
  /** What the one line says. */
  said: RegExp;
  /** The cause a log line names. */
  cause: RegExp;
  close(): Promise<void>;
}

async function silencer(t: TestStore): Promise<Silencer> {
  if (t.schema === undefined) return sqliteLock(t.url.replace(/^sqlite:/, ''));
  const relay = await startCuttableTcp(t.url);
  return {
    db: ['--db', relay.url, '--db-schema', t.schema],
    silence: async () => relay.set('hold'),
    speak: async () => relay.set('pass'),
    said: /^ds-mirror: .*no answer from 127\.0\.0\.1:\d+ within \d+ s of (connecting|a statement)/,
    cause: /the database server does not answer/,
    close: () => relay.close(),
  };
}

/** Another process (Python's sqlite3, as an analyst's script) holding the write lock until told to stop. */
function sqliteLock(file: string): Silencer {
  let holder: ChildProcess | undefined;
  const script = `import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=60)\nc.execute('begin immediate')\nprint('locked', flush=True)\nsys.stdin.read()\n`;
  return {
    db: ['--db', `sqlite:${file}`],
    async silence() {
      const child = spawn('python3', ['-c', script, file], { stdio: ['pipe', 'pipe', 'inherit'] });
      holder = child;
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => String(d).includes('locked') && resolve());
        child.on('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
      });
    },
    async speak() {
      const child = holder;
      holder = undefined;
      if (!child || child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.on('exit', resolve));
      child.stdin?.end();
      await gone;
    },
    said: /^ds-mirror: .*(the database is locked by another process|database is locked)/,
    cause: /the database is locked by another process/,
    close: async () => void holder?.kill('SIGKILL'),
  };
}

function runCli(db: string[], args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', '--config', config, ...db, ...args, '--no-progress'], {
    env: { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The next run once the database answers again, in this process on what the CLI was given: its outcome. */
async function nextRun(db: string[], streams: string[]): Promise<string> {
  return (await libraryRun({ config, db: db[1]!, dbSchema: db[3] }, sandbox, { streams })).outcome;
}

/** The newest run the mirror holds (read on a connection of the test's own), 0 for none. */
async function lastRun(t: TestStore): Promise<number> {
  const row = await t.store.db.selectFrom('sync_runs').select('id').orderBy('id', 'desc').executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Whether a run after `after` has started and not finished. */
async function runStarted(t: TestStore, after: number): Promise<true | undefined> {
  const row = await t.store.db
    .selectFrom('sync_runs')
    .select('id')
    .where('finished_at', 'is', null)
    .where('id', '>', after)
    .executeTakeFirst();
  return row ? true : undefined;
}

for (const dialect of dialects) {
  describe(`a database that stops answering (${dialect})`, () => {
    // One mirror for both: each case's run is told apart from the one before by its id.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    it('fails a sync before its first write with one line and exit 1; the next run completes', async () => {
      const s = await silencer(t);
      try {
        await s.silence();
        const failed = await runCli(s.db, ['sync', 'glossary']);
        await s.speak();
        expect(failed.code).toBe(1);
        expect(failed.stderr.trim().split('\n')).toEqual([expect.stringMatching(s.said)]);
        expect(await nextRun(s.db, ['glossary'])).toBe('success');
      } finally {
        await s.speak();
        await s.close();
      }
    });

    it('fails a sync in the middle, every line naming the cause, exit 1; the next run completes', async () => {
      const s = await silencer(t);
      try {
        // The run waits on its second page of assets while the database goes silent, then writes; the
        // other streams (a few small lists, not all of /v1) are there to fail recording their results too.
        const before = await lastRun(t);
        sandbox.setChaos({ hold: { path: '/v1/assets', fromPage: 2 } });
        const run = runCli(s.db, ['sync', ...STREAMS, '--full']);
        await waitFor('the run started', () => runStarted(t, before));
        await s.silence();
        sandbox.setChaos(null);
        const failed = await run;
        await s.speak();
        expect(failed.code).toBe(1);
        // Every line says why: the run's own (when it could not go on), or a log line per stream whose
        // result could not be recorded, all within one bound.
        const lines = failed.stderr.trim().split('\n').filter(Boolean);
        // A run that fails on its own writes says why in its summary's run line (stdout), else on stderr.
        expect(lines.length > 0 || new RegExp(s.cause).test(failed.stdout), failed.stdout).toBe(true);
        const causes: string[] = [];
        for (const line of lines) {
          if (line.startsWith('ds-mirror: ')) expect(line).toMatch(s.said);
          else {
            expect(JSON.parse(line), line).toMatchObject({ level: 50, err: expect.stringMatching(s.cause) });
            causes.push((JSON.parse(line) as { err: string }).err);
          }
        }
        // Each cause said once for the run, not once per stream it failed.
        expect(new Set(causes).size, failed.stderr).toBe(causes.length);
        // A statement the silent server held is given up its own bound (1 s) after that bound, not 10 s.
        if (dialect === 'postgres')
          expect(failed.stdout + failed.stderr).toMatch(/within 2 s of a statement \(its bound, 1 s, and 1 s more\)/);
        expect(await nextRun(s.db, STREAMS)).toBe('success');
      } finally {
        sandbox.setChaos(null);
        await s.speak();
        await s.close();
      }
    });
  });
}
