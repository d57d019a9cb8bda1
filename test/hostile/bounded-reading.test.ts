// @end-to-end
// A hostile service cannot make a run read without end: a body past maxResponseBytes is stopped while
// it streams in (memory held stays near the limit, not the body), a list that never serves a short page
// stops at a page limit derived from what the mirror knows, and pages that cycle A/B/A/B are a loop.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { createClient } from '../../src/client/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { settings, silent } from '../helpers/mirror.js';
import { listOf, startHostileServer, type HostileServer } from './hostile-server.js';

const MiB = 1024 * 1024;
let server: HostileServer;
beforeAll(async () => void (server = await startHostileServer()));
afterAll(() => server.close());

async function syncCharts(store: Store, opts: { maxResponseBytes?: number; maxPagesPerList?: number } = {}) {
  const fast = { requestsPerMinute: 10_000_000, concurrency: 8 };
  const client = createClient({
    baseUrl: server.url,
    apiKey: 'k',
    retries: 0,
    timeoutMs: 30_000,
    maxResponseBytes: opts.maxResponseBytes,
    limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
  });
  try {
    const result = await runSync({
      client,
      store,
      logger: silent,
      settings: settings({ maxPagesPerList: opts.maxPagesPerList }),
      streams: resolveStreams(['charts']),
    });
    return result.streams[0]!;
  } finally {
    await client.close();
  }
}

const chart = (id: number) => ({ id, title: `chart ${id}`, dashboards: ['DeFi'] });
/** Full pages forever: page p holds ids (p-1)*limit+1 .. p*limit. */
const endless = listOf((page, limit) => Array.from({ length: limit }, (_, i) => chart((page - 1) * limit + i + 1)));

/** Sends `{"data":[` and then records without end (chunked, no content-length), counting the bytes it got out. */
function hugeBody(sent: { bytes: number }) {
  return (_url: URL, _req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const record = JSON.stringify({ id: 1, title: 'x'.repeat(1000), dashboards: [] });
    const chunk = Buffer.from(`${record},`.repeat(64)); // ≈64 KB
    let total = 0;
    const body = Readable.from(
      (function* () {
        yield Buffer.from('{"data":[');
        while (total < 256 * MiB) {
          // a body 64 times the limit (the 700 MB case, scaled to a test)
          total += chunk.length;
          sent.bytes = total;
          yield chunk;
        }
        yield Buffer.from('{}]}');
      })(),
    );
    pipeline(body, res).catch(() => {}); // the client hangs up: that is the point
  };
}

for (const dialect of dialects) {
  describe(`bounded reading (${dialect})`, () => {
    // One mirror for the two first cases, which start from a mirror knowing nothing of the list: the body
    // too large writes nothing. The others have a mirror of their own: the endless list's run leaves a
    // checkpoint that the next run would resume from.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());

    it('stops a body past maxResponseBytes while it streams: its own error, memory held near the limit', async () => {
      const sent = { bytes: 0 };
      server.serve(hugeBody(sent));
      global.gc?.();
      const before = process.memoryUsage();
      let peak = 0;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.arrayBuffers - before.arrayBuffers);
      }, 2);
      const stats = await syncCharts(t.store, { maxResponseBytes: 4 * MiB });
      clearInterval(sampler);
      expect(stats.outcome).toBe('failed');
      expect(stats.error).toMatch(/body larger than 4194304 bytes/);
      // The server got out a fraction of its 256 MiB before the client hung up.
      expect(sent.bytes).toBeLessThan(64 * MiB);
      // Buffers held while reading: about the limit (plus socket buffers), not the body.
      expect(peak).toBeLessThan(24 * MiB);
      expect(await t.store.db.selectFrom('charts').selectAll().execute()).toHaveLength(0);
    });

    it('stops a list that never ends at the maxPagesPerList ceiling when the mirror knows nothing of it', async () => {
      server.serve(endless);
      const stats = await syncCharts(t.store, { maxPagesPerList: 20 });
      expect(stats.outcome).toBe('failed');
      expect(stats.error).toMatch(/served more than 20 full pages in one run \(the maxPagesPerList ceiling\)/);
      expect(server.hits).toBeLessThanOrEqual(20 + 8); // the limit plus the pages fetched ahead
    });

    it('stops a list that never ends at twice the pages the mirror last saw, plus slack', async () => {
      const own = await openTestStore(dialect);
      try {
        server.serve(
          listOf((page, limit) => (page <= 3 ? Array.from({ length: limit }, (_, i) => chart((page - 1) * limit + i + 1)) : [])),
        );
        expect((await syncCharts(own.store)).outcome).toBe('success'); // 300 rows, 3 full pages
        server.serve(endless);
        const stats = await syncCharts(own.store);
        expect(stats.error).toMatch(/more than 16 full pages .*twice the 300 rows it held last time/);
        expect(server.hits).toBeLessThanOrEqual(16 + 8);
      } finally {
        await own.cleanup();
      }
    });

    it('detects pages that cycle A/B/A/B as a loop, not only a repeat of the previous page', async () => {
      server.serve(listOf((page, limit) => Array.from({ length: limit }, (_, i) => chart((page % 2) * limit + i + 1))));
      const own = await openTestStore(dialect);
      try {
        const stats = await syncCharts(own.store);
        expect(stats.outcome).toBe('failed');
        expect(stats.error).toMatch(/served the records of page 1 again on page 3: paging is ignored/);
        expect(server.hits).toBeLessThanOrEqual(3 + 4);
      } finally {
        await own.cleanup();
      }
    });
  });
}
