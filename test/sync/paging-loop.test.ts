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

describe('paging loop in a fan-out', () => {
  // One chart whose data endpoint ignores `page`: every page is the same 100,000 rows (a run of zeros, so
  // rows repeat within a page too). Before the shared guard the fan-out asked for page after page forever.
  const ZEROS = JSON.stringify({ data: Array.from({ length: 100_000 }, () => ({ value: 0 })) });
  let loopServer: Server;
  let loopUrl: string;
  const dataPages: number[] = [];

  beforeAll(async () => {
    loopServer = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (u.pathname === '/v1/charts') return void res.end(JSON.stringify({ data: [{ id: 7, title: 'zeros', dashboards: [] }] }));
      dataPages.push(Number(u.searchParams.get('page')));
      res.end(ZEROS);
    });
    await new Promise<void>((resolve) => loopServer.listen(0, '127.0.0.1', resolve));
    loopUrl = `http://127.0.0.1:${(loopServer.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => loopServer.close(() => resolve())));

  it('stops chart rows whose pages repeat at the second page, replacing nothing', async () => {
    const test = await openTestStore('sqlite');
    try {
      const result = await syncOnce(test.store, { url: loopUrl, apiKey: 'k' }, ['charts', 'chart-rows'], {
        settings: { selection: { charts: { ids: ['7'] } } },
      });
      const rows = result.streams.find((s) => s.stream === 'chart-rows')!;
      expect(rows.outcome).toBe('failed');
      expect(rows.error).toMatch(/\/v1\/charts\/7\/data served the records of page 1 again on page 2: paging is ignored/);
      expect(dataPages.slice(0, 2)).toEqual([1, 2]);
      expect(dataPages.length).toBeLessThanOrEqual(3); // page 3 may be asked for before page 2 is checked
      const held = await test.store.db
        .selectFrom('chart_rows')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(held.n)).toBe(0);
    } finally {
      await test.cleanup();
    }
  });
});
