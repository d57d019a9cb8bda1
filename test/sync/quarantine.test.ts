// Malformed upstream records go to quarantine with the reason, and the sync goes on with the rest.
// A tiny loopback server stands in for the service here: the sandbox never serves a bad record.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, openTestStore } from '../helpers/stores.js';
import { syncOnce } from '../helpers/mirror.js';

const CHARTS = [
  { id: 1, title: 'Fees by Chain', dashboards: ['DeFi'] },
  { title: 'no id at all', dashboards: [] },
  'not an object',
  { id: null, title: 'null id', dashboards: [] },
  { id: 2, title: null, dashboards: ['Markets'] },
];

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ page, total: 1, data: page === 1 ? CHARTS : [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

for (const dialect of dialects) {
  describe(`quarantine on ${dialect}`, () => {
    it('keeps the good records, quarantines the bad ones with the reason, and counts them as errors', async () => {
      const test = await openTestStore(dialect);
      try {
        const result = await syncOnce(test.store, { url, apiKey: 'k' }, ['charts']);
        const stats = result.streams[0];
        expect(stats).toMatchObject({ fetched: 5, inserted: 2, errors: 3, outcome: 'partial' });
        const ids = (await test.store.db.selectFrom('charts').select('id').orderBy('id').execute()).map((r) => r.id);
        expect(ids).toEqual([1, 2]);
        const bad = await test.store.db.selectFrom('quarantine').select(['stream', 'reason', 'record']).orderBy('id').execute();
        expect(bad.map((b) => b.stream)).toEqual(['charts', 'charts', 'charts']);
        expect(bad.map((b) => b.reason)).toEqual([
          'required field "id" is missing or null',
          'record is not a JSON object',
          'required field "id" is missing or null',
        ]);
        expect(JSON.parse(String(bad[0].record))).toEqual(CHARTS[1]);
      } finally {
        await test.cleanup();
      }
    });
  });
}
