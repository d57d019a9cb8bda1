// @end-to-end
// Interrupted runs: a run stopped by --max-requests, and a CLI process killed (SIGKILL) mid-way, both
// resume from their checkpoints (not page 1) and end with a mirror identical to an uninterrupted one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { syncOnce, tableSnapshot } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const STREAMS = ['assets', 'sec-filings', 'market-stats', 'charts'];
const TABLES = v1Lists.filter((s) => STREAMS.includes(s.name)).map((s) => s.table);

async function snapshots(test: TestStore): Promise<Record<string, unknown>> {
  return Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await tableSnapshot(test.store, t)])));
}

for (const dialect of dialects) {
  describe(`resume on ${dialect}`, () => {
    let sandbox: Sandbox;
    let clean: TestStore;
    let cleanRequests: number;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 11 });
      clean = await openTestStore(dialect);
      cleanRequests = (await syncOnce(clean.store, sandbox, STREAMS)).requests;
    });
    afterAll(async () => {
      await clean?.cleanup();
      await sandbox?.close();
    });

    it('stops cleanly at --max-requests and the next run resumes from the checkpoint', async () => {
      const test = await openTestStore(dialect);
      try {
        const first = await syncOnce(test.store, sandbox, STREAMS, { maxRequests: Math.floor(cleanRequests / 2) });
        expect(first.outcome).toBe('stopped');
        expect(first.requests).toBe(Math.floor(cleanRequests / 2));
        const second = await syncOnce(test.store, sandbox, STREAMS);
        expect(second.outcome).toBe('success');
        // Resumed, not restarted: together the two runs fetch each page about once (requests cut off
        // in flight by the budget are fetched again).
        expect(first.requests + second.requests).toBeLessThan(cleanRequests + 16);
        expect(await snapshots(test)).toEqual(await snapshots(clean));
      } finally {
        await test.cleanup();
      }
    });

    it('a CLI run killed mid-way resumes and ends identical', async () => {
      const test = await openTestStore(dialect);
      const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-kill-'));
      const config = join(dir, 'config.json');
      const fast = { requestsPerMinute: 1_000_000, concurrency: 4 };
      writeFileSync(config, JSON.stringify({ limits: { v1: fast, open: fast, charts: fast }, pageWindow: 1 }));
      // Pages 7 and later of assets get no answer: the CLI commits the token class's first pages (written in
      // groups of 500 rows: pages 1-5), then waits there, mid-list, until it is killed.
      sandbox.setChaos({ hold: { path: '/v1/assets', fromPage: 7 } });
      try {
        const child = spawn(process.execPath, ['bin/ds-mirror.js', 'sync', ...STREAMS, '--no-progress'], {
          env: {
            ...process.env,
            DS_BASE_URL: sandbox.url,
            DS_API_KEY: sandbox.apiKey,
            DS_DB: test.url,
            ...(test.schema ? { DS_DB_SCHEMA: test.schema } : {}),
            DS_CONFIG: config,
            DS_LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk) => {
          stderr += chunk;
        });
        let exit: number | null | undefined;
        const exited = new Promise((resolve) => child.once('exit', resolve)).then((code) => {
          exit = code as number | null;
        });
        // Kill it once some pages are committed: the held pages keep it running until then.
        const deadline = Date.now() + 240_000;
        for (;;) {
          const state = await test.store.db
            .selectFrom('stream_state')
            .select('checkpoint')
            .where('stream', '=', 'assets')
            .executeTakeFirst()
            .catch(() => undefined);
          const checkpoint = state?.checkpoint ? JSON.parse(String(state.checkpoint)) : null;
          if (checkpoint && Object.values(checkpoint.next as Record<string, number | null>).some((page) => (page ?? 0) >= 3)) break;
          if (exit !== undefined) throw new Error(`the CLI exited (${exit}) before it committed pages of assets: ${stderr}`);
          if (Date.now() > deadline) throw new Error('the CLI committed no pages of assets in 240 s');
          await new Promise((r) => setTimeout(r, 20));
        }
        child.kill('SIGKILL');
        await exited;
        sandbox.setChaos(null);
        const resumed = await syncOnce(test.store, sandbox, STREAMS);
        expect(resumed.outcome).toBe('success');
        expect(resumed.requests).toBeLessThan(cleanRequests);
        expect(await snapshots(test)).toEqual(await snapshots(clean));
      } finally {
        sandbox.setChaos(null);
        await test.cleanup();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
