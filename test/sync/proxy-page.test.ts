// A proxy's 200 HTML page on a /v1 list page, served by the sandbox over real HTTP, on both stores: one
// such answer is retried inside the client and the sync ends with every row; answers beyond the retries
// fail that stream alone, with one line naming the request and "not JSON", in sync_run_streams and in
// the CLI's output, while the other streams of the same run succeed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { main, type CliIo } from '../../src/cli/main.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const PATH = '/v1/chains';
const chains = v1Lists.find((s) => s.path === PATH)!;
/** The proxy's page, then the rest: the request, "not JSON", the content type and the page's start, on one line. */
const CLEAR =
  /^GET \/v1\/chains\?\S+ returned a body that is not JSON .*content-type text\/html.* after \d+ attempts: <!DOCTYPE html>[^\n]*$/;

for (const dialect of dialects) {
  describe(`a proxy's 200 HTML page on ${PATH}, on ${dialect}`, () => {
    let sandbox: Sandbox;
    let test: TestStore;
    let dir: string;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 11 });
      test = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-proxy-'));
    });
    afterAll(async () => {
      await test?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('is retried once and the sync succeeds with every row', async () => {
      sandbox.setChaos({ html: { times: 1, path: PATH } });
      const result = await syncOnce(test.store, sandbox, ['chains', 'glossary']);
      expect(sandbox.chaos()?.html?.times).toBe(0); // the page was served
      expect(result.streams.map((s) => [s.stream, s.outcome, s.error ?? null])).toEqual([
        ['chains', 'success', null],
        ['glossary', 'success', null],
      ]);
      const rows = await liveRecords(test.store, chains.table, chains.key);
      expect(rows.size).toBe(sandbox.records('chains').length);
      expect(rows.size).toBeGreaterThan(0);
      // Each stream counts what the service answered, the retry included (one page each, chains asked twice),
      // and together they are the client's count: requests are counted in one place, the client.
      expect(result.streams.map((s) => [s.stream, s.requests])).toEqual([
        ['chains', 2],
        ['glossary', 1],
      ]);
      expect(result.requests).toBe(3);
      sandbox.setChaos(null);
    });

    it('beyond the retries fails that stream alone, recorded in one clear line', async () => {
      sandbox.setChaos({ html: { times: 1_000, path: PATH } });
      const result = await syncOnce(test.store, sandbox, ['chains', 'glossary']);
      sandbox.setChaos(null);
      const byStream = new Map(result.streams.map((s) => [s.stream, s]));
      expect(byStream.get('glossary')?.outcome).toBe('success');
      expect(byStream.get('chains')?.outcome).toBe('failed');
      expect(byStream.get('chains')?.error).toMatch(CLEAR);
      expect(result.outcome).toBe('failed');
      const recorded = await test.store.db
        .selectFrom('sync_run_streams')
        .select(['stream', 'outcome', 'error'])
        .where('run_id', '=', result.runId)
        .orderBy('stream')
        .execute();
      expect(recorded.map((r) => [r.stream, r.outcome])).toEqual([
        ['chains', 'failed'],
        ['glossary', 'success'],
      ]);
      expect(String(recorded[0].error)).toMatch(CLEAR);
      // The rows of the earlier sync stay: a failed read deletes nothing.
      expect((await liveRecords(test.store, chains.table, chains.key)).size).toBe(sandbox.records('chains').length);
    });

    it('is printed by `ds-mirror sync`, which exits 1', async () => {
      const config = join(dir, 'config.json');
      const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
      writeFileSync(config, JSON.stringify({ retries: 1, limits: { v1: fast, open: fast, charts: fast } }));
      const out: string[] = [];
      const sink = { write: (s: string) => out.push(s) > 0, isTTY: false } as unknown as NodeJS.WriteStream;
      const io: CliIo = {
        stdout: sink,
        stderr: sink,
        env: { DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'silent' },
      };
      const db = ['--db', test.url, ...(test.schema ? ['--db-schema', test.schema] : [])];
      sandbox.setChaos({ html: { times: 1_000, path: PATH } });
      const code = await main(['node', 'ds-mirror', ...db, '--config', config, 'sync', 'chains', 'glossary', '--no-progress'], io);
      sandbox.setChaos(null);
      expect(code).toBe(1);
      const lines = out.join('').split('\n');
      const line = lines.find((l) => /^\s*chains\b/.test(l));
      expect(line).toMatch(/failed/);
      expect(line).toMatch(/GET \/v1\/chains\?\S+ returned a body that is not JSON .*text\/html.* after 2 attempts/);
      expect(lines.find((l) => /^\s*glossary\b/.test(l))).toMatch(/success/);
    });
  });
}
