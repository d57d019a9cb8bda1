// @end-to-end
// A family stops as a whole, through the command a user runs, on both stores: after the service announces
// the /v1 allowance spent, no request of the family leaves, not even the new streams' first pages that were
// admitted and waiting for their pace slot (before: 7 more over 700 ms); after the first 401 of a family,
// no further request of that family is sent, and the run says so once, naming where the key came from
// (never the key) and the header it went in (before: 27 requests and a table of 401s).
import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import pino from 'pino';
import { loadConfig, openMirror } from '../../src/index.js';

const run = promisify(execFile);
const BIN = resolve('bin/ds-mirror.js');
const WRONG_KEY = 'sbx_wrong_key_0123456789';

/** One request as the service saw it: its path and the status it got. */
interface Seen {
  path: string;
  status: number;
}

/** A pass-through in front of the sandbox that logs every request it answered. */
async function recordingProxy(target: string): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const out = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      res.on('finish', () => seen.push({ path: req.url ?? '', status: answer.statusCode ?? 0 }));
    });
    req.pipe(out);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

let sandbox: Sandbox;
/** Every run goes through it (a mirror is kept to one service address). */
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let dir: string;

/** Spawns ds-mirror; a variable given as undefined is left out of its environment. */
async function cli(args: string[], test: TestStore, env: Record<string, string | undefined> = {}) {
  const all: NodeJS.ProcessEnv = {
    ...process.env,
    DS_BASE_URL: proxy.url,
    DS_API_KEY: sandbox.apiKey,
    DS_DB: test.url,
    DS_DB_SCHEMA: test.schema ?? '',
    DS_CONFIG: '',
    DS_LOG_LEVEL: 'warn',
    DS_MONITORING_VIEWS: '',
    ...env,
  };
  for (const [name, value] of Object.entries(all)) if (value === undefined) delete all[name];
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], {
      env: all,
      timeout: 170_000,
      maxBuffer: 1e8,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const familyOf = (path: string) =>
  path.startsWith('/v1/market-stats')
    ? 'open'
    : path.startsWith('/v1/')
      ? 'v1'
      : path.startsWith('/monitoring/')
        ? 'monitoring'
        : 'tokenUnlocks';

/**
 * Requests of `family` the client sent after it read the family's first refusal (`status`), judged by the
 * order of its own debug log: the service's order is no judge on a busy machine, where a request may leave
 * while the refusal is still on its way back.
 */
function sentAfterRefusal(stderr: string, family: string, status: number): number {
  const events = stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; endpoint?: string; status?: number | null });
  const ofFamily = (e: { endpoint?: string }) => familyOf((e.endpoint ?? '').replace(/^GET /, '')) === family;
  const refusal = events.findIndex((e) => e.msg === 'http request' && e.status === status && ofFamily(e));
  expect(refusal, `no ${status} of ${family} in the client's log`).toBeGreaterThanOrEqual(0);
  return events.slice(refusal + 1).filter((e) => e.msg === 'http send' && ofFamily(e)).length;
}

beforeAll(async () => {
  sandbox = await startSandbox({ scale: 0.1, seed: 42, start: PINNED_START });
  proxy = await recordingProxy(sandbox.url);
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-family-stop-'));
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(dialects)('a family stopped as a whole on %s', (dialect) => {
  let test: TestStore;
  // One mirror: a key refused leaves no hold, and the quota's hold (which refuses the next run's /v1) is the last test's.
  beforeAll(async () => {
    test = await openTestStore(dialect);
  });
  afterAll(() => test?.cleanup());

  // The key's source is the configuration's, not the store's: DS_API_KEY on SQLite, a key file on PostgreSQL,
  // each named (never the key) in the same lines.
  it('stops every stream of a family at its first 401, says so once per family naming where the key came from, and sends nothing more of it', async () => {
    const keyFile = join(dir, 'key.txt');
    writeFileSync(keyFile, WRONG_KEY);
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ apiKeyFile: keyFile }));
    const [source, env] =
      dialect === 'sqlite'
        ? ['DS_API_KEY', { DS_API_KEY: WRONG_KEY }]
        : [`apiKeyFile ${keyFile}`, { DS_CONFIG: config, DS_API_KEY: undefined }];
    proxy.seen.length = 0;
    const out = await cli(['sync', '--no-progress'], test, { ...env, DS_LOG_LEVEL: 'debug' });
    expect(out.code, out.stderr.slice(-2000)).toBe(1);
    expect(`${out.stdout}${out.stderr}`).not.toContain(WRONG_KEY);
    for (const family of ['v1', 'monitoring', 'tokenUnlocks']) {
      expect(sentAfterRefusal(out.stderr, family, 401), family).toBe(0);
      expect(proxy.seen.filter((s) => familyOf(s.path) === family).length, family).toBeGreaterThan(0);
    }
    const lines = out.stdout.split('\n').filter((l) => l.startsWith('key: '));
    expect(lines).toHaveLength(3);
    const said = (header: string) => `key: the service refused the API key from ${source}, sent as ${header} (HTTP 401 on GET `;
    const v1 = /\); nothing more of \/v1 \(and charts\) is sent: check the key$/;
    expect(lines.filter((l) => l.startsWith(`${said('x-api-key')}/v1/`) && v1.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith(said('X-Service-API-Key')) && /nothing more of monitoring is sent/.test(l))).toHaveLength(1);
    expect(out.stdout).not.toMatch(/^\S+\s.*failed: GET /m); // no row repeats a 401
    expect(out.stdout).toMatch(/^assets\s.*failed: key refused \(see below\)$/m);
  });

  it('sends nothing more of /v1 after the service says its allowance is spent, at the default pace', async () => {
    sandbox.clearQuota();
    sandbox.setQuota('v1=8/month');
    proxy.seen.length = 0;
    try {
      const first = await cli(['sync', 'v1', '--no-progress'], test, { DS_LOG_LEVEL: 'debug' });
      expect(first.code, first.stderr.slice(-2000)).toBe(3);
      // Before the fix, 7 more requests left after the refusal, each waiting for its pace slot.
      expect(sentAfterRefusal(first.stderr, 'v1', 429)).toBe(0);
      expect(sandbox.quota().families.v1.used.month).toBe(8);
      expect(first.stdout.match(/^quota: the service says the \/v1 allowance is spent/gm)).toHaveLength(1);
      expect(first.stdout).not.toMatch(/HTTP 429/);

      // The hold is kept: the next run asks the service nothing of /v1, refused before its first request as
      // the month's schedule cannot fit a held family. It runs in this process through the library's door
      // (openMirror: the CLI's preflight, quota gate and the hold it reads); the CLI's exit 3 and lines for a
      // refused run are test/budget/budget-cli's.
      const refused = sandbox.quota().families.v1.refused;
      const config = join(dir, 'empty-config.json');
      writeFileSync(config, '{}');
      const mirror = openMirror(
        loadConfig({ config, db: test.url, dbSchema: test.schema }, { DS_BASE_URL: proxy.url, DS_API_KEY: sandbox.apiKey }),
        { logger: pino({ level: 'silent' }) },
      );
      try {
        const second = await mirror.sync({ streams: ['v1'] });
        expect(second.refused).toMatchObject({
          why: 'schedule',
          lines: [expect.stringMatching(/\(held: the service refuses the family until .*\); nothing was requested/)],
        });
      } finally {
        await mirror.close();
      }
      expect(sandbox.quota().families.v1.refused).toBe(refused);
      expect(sandbox.quota().families.v1.used.month).toBe(8);
    } finally {
      sandbox.clearQuota();
    }
  });
});
