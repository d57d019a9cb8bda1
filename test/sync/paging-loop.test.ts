// A service that ignores `page` (serving the same records on every page) must stop the stream, not loop.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../helpers/stores.js';
import { syncOnce } from '../helpers/mirror.js';

const FULL_PAGE = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, title: `chart ${i + 1}`, dashboards: [] }));
let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ page, total: 100, data: FULL_PAGE })); // echoes the page, ignores it otherwise
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('paging loop', () => {
  it('stops a list whose pages repeat, at the second page, with a clear error', async () => {
    const test = await openTestStore('sqlite');
    try {
      const result = await syncOnce(test.store, { url, apiKey: 'k' }, ['charts']);
      const stats = result.streams[0];
      expect(stats.outcome).toBe('failed');
      expect(stats.error).toMatch(/paging is ignored/);
      // Page 2 is the repeat; a first read keeps a window of 4 pages in flight past each full page (#25).
      expect(requests).toBeLessThanOrEqual(2 + 4);
      // The first page's records were mirrored before the loop was noticed.
      const rows = await test.store.db
        .selectFrom('charts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(100);
    } finally {
      await test.cleanup();
    }
  });
});
