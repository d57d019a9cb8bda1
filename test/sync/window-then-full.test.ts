// A date-window list's incremental runs read only their window's pages, so its page hashes then hold a
// few rows; a full pass afterwards must still expect the whole table (its live rows), not stop at the
// page limit sized from the window ("served more than 12 full pages").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, openTestStore } from '../helpers/stores.js';
import { syncOnce } from '../helpers/mirror.js';

const DAYS = 1500;
const DAY_MS = 86_400_000;
const FIRST = Date.parse('2020-01-01T00:00:00Z');
const STATS = Array.from({ length: DAYS }, (_, i) => ({ id: i + 1, date: new Date(FIRST + i * DAY_MS).toISOString().slice(0, 10) }));
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    const page = Number(query.get('page') ?? 1);
    const limit = Number(query.get('limit') ?? 100);
    const start = query.get('start_date');
    const rows = start === null ? STATS : STATS.filter((s) => s.date >= start);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ page, total: rows.length, data: rows.slice((page - 1) * limit, page * limit) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.each(dialects)('a full pass after windowed runs on %s', (dialect) => {
  it("reads the whole list: the page limit counts the live rows, not the window's last pages", async () => {
    const test = await openTestStore(dialect);
    try {
      const service = { url, apiKey: 'k' };
      expect((await syncOnce(test.store, service, ['market-stats'], { settings: { mode: 'full' } })).outcome).toBe('success');
      const windowed = await syncOnce(test.store, service, ['market-stats']);
      expect(windowed.outcome).toBe('success');
      expect(windowed.streams[0].fetched).toBeLessThan(100); // the 3-day lookback: one short page
      const full = await syncOnce(test.store, service, ['market-stats'], { settings: { mode: 'full' } });
      expect([full.outcome, full.streams[0].error, full.streams[0].fetched]).toEqual(['success', null, DAYS]);
    } finally {
      await test.cleanup();
    }
  });
});
