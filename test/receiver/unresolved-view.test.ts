// @end-to-end
// Webhooks fail closed, through the doors a user opens (`ds-mirror receive`, `ds-mirror daemon` and its
// status page, `status`), on both stores: with views [A by id, B by slug, "renamed-view"] where "renamed-view"
// resolves to no mirrored view, a delivery signed with "renamed-view"'s secret passes for no view, one for
// a view not configured is refused whatever signs it, and A and B are checked as before (A by its own
// secret only, B by the shared one). /healthz, `status` and the status page name "renamed-view".
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { waitFor } from '../scheduler/scrape.js';
import { makeEnvelope, sign } from './webhook-fixtures.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const BIN = resolve('bin/ds-mirror.js');
const A = randomUUID(); // configured by id, with its own secret
const B = randomUUID(); // configured by slug, mirrored, no secret of its own
const OTHER = randomUUID(); // not configured
const RENAMED = 'renamed-view'; // configured, but no mirrored view has this slug
const SHARED = 'whsec-shared-secret';
const A_OWN = 'whsec-a-own-secret';
const RENAMED_OWN = 'whsec-renamed-own-secret';
const LINE = `monitoring view "${RENAMED}" does not resolve (no mirrored view has this id or slug): its webhook deliveries are refused and its secret signs for no view`;

let sandbox: Sandbox;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1 });
  dir = mkdtempSync(join(tmpdir(), 'ds-unresolved-view-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DS_CONFIG: '',
    DS_LOG_LEVEL: 'info',
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_MONITORING_VIEWS: `${A},b-view,${RENAMED}`,
    // One shared secret, and A's and "renamed-view"'s own ("<view> <secret>").
    DS_WEBHOOK_SECRETS: `${SHARED},${A} ${A_OWN},${RENAMED} ${RENAMED_OWN}`,
  };
}

function dbArgs(t: TestStore): string[] {
  return ['--db', t.url, ...(t.schema ? ['--db-schema', t.schema] : [])];
}

/** Spawns the CLI and waits until `ready` finds what it prints (stdout) or logs (stderr). */
async function spawnCli(
  args: string[],
  ready: (out: string, err: string) => string | undefined,
): Promise<{ child: ChildProcess; found: string }> {
  const child = spawn(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const found = await waitFor('the command to start', () => {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${err}`);
    return ready(out, err);
  });
  return { child, found };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  child.kill('SIGTERM');
  return exited;
}

async function deliver(url: string, viewId: string, secret: string): Promise<number> {
  const body = JSON.stringify(makeEnvelope({ viewId }));
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': sign(secret, body, Math.floor(Date.now() / 1000)) },
  });
  await res.body.dump();
  return res.statusCode;
}

/** Every case of the rules: what a delivery for each view, signed with each secret, is answered. */
async function answers(url: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [view, id] of [
    ['A', A],
    ['B', B],
    ['other', OTHER],
  ] as const) {
    for (const [secret, value] of [
      ['own', A_OWN],
      ['shared', SHARED],
      ['renamed', RENAMED_OWN],
    ] as const) {
      out[`${view} signed ${secret === 'own' ? "A's" : secret}`] = await deliver(url, id, value);
    }
  }
  return out;
}

const EXPECTED = {
  "A signed A's": 200,
  'A signed shared': 401, // A has its own secret
  'A signed renamed': 401, // the unresolved view's secret signs for no view
  "B signed A's": 401,
  'B signed shared': 200,
  'B signed renamed': 401,
  "other signed A's": 403, // not configured, whatever signs it
  'other signed shared': 403,
  'other signed renamed': 403,
};

for (const dialect of dialects) {
  describe(`a configured view that does not resolve (${dialect})`, () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
      const at = new Date().toISOString();
      await t.store.db
        .insertInto('monitoring_views')
        .values({ id: B, slug: 'b-view', name: 'B', raw: '{}', row_hash: 'x', first_seen_at: at, synced_at: at } as never)
        .execute();
    });
    afterAll(async () => t?.cleanup());

    it('`receive` takes A and B as before, nothing signed with its secret nor for another view; /healthz names it', async () => {
      const { child, found: url } = await spawnCli([...dbArgs(t), 'receive', '--port', '0'], (out) => /at (\S+)/.exec(out)?.[1]);
      try {
        expect(await answers(url)).toEqual(EXPECTED);
        const health = await request(url.replace(/\/webhooks$/, '/healthz'));
        expect(health.statusCode).toBe(200);
        expect(await health.body.json()).toEqual({ ok: true, unresolvedViews: [RENAMED], reasons: [LINE] });
      } finally {
        expect(await stop(child)).toBe(0);
      }
      const stored = await t.store.db.selectFrom('webhook_deliveries').select('view_id').execute();
      expect(stored.map((r) => r.view_id).sort()).toEqual([A, B].sort());
    });

    it('the daemon refuses alike, and its /healthz says degraded, naming the view, as its status page does', async () => {
      const config = join(dir, `daemon-${dialect}.json`);
      const off = Object.fromEntries(
        ['assets-top', 'daily-catalog', 'weekly-charts', 'monitoring-lists', 'monitoring-events', 'alert-backfill', 'monthly-assets'].map(
          (j) => [j, { enabled: false }],
        ),
      );
      writeFileSync(config, JSON.stringify({ timezone: 'UTC', jobs: off, receiver: { port: 0 } }));
      const args = ['--config', config, ...dbArgs(t), 'daemon', '--metrics-port', '0', '--run-at-start', 'none'];
      const { child, found: base } = await spawnCli(args, (out) => /health (http:\/\/[\d.:]+)\/healthz/.exec(out)?.[1]);
      try {
        const health = async () => {
          const res = await request(`${base}/healthz`);
          return (await res.body.json()) as {
            status: string;
            reasons: string[];
            receiver: { url: string; unresolvedViews: string[] } | null;
          };
        };
        const body = await waitFor('the receiver', async () => ((await health()).receiver ? health() : undefined));
        expect(body.status).toBe('degraded');
        expect(body.reasons).toContain(LINE);
        expect(body.receiver!.unresolvedViews).toEqual([RENAMED]);
        expect(await answers(body.receiver!.url)).toEqual(EXPECTED);
        // The status page names it: the one `status --html` writes (the same page less its refresh, as
        // test/observability/status-page-browser.test.ts proves), served here by the daemon.
        const page = await request(`${base}/status`);
        expect(page.statusCode).toBe(200);
        expect(await page.body.text()).toContain(LINE.replaceAll('"', '&quot;'));
      } finally {
        expect(await stop(child)).toBe(0);
      }
    });

    it('`status` names it (the status page: the daemon case above)', async () => {
      const status = await run([...dbArgs(t), 'status']);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`- ${LINE}`);
    });
  });
}

async function run(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  return { code, stdout };
}
