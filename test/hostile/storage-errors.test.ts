// @end-to-end
// A store that cannot write (disk full, here made full without a real disk: SQLite's max_page_count,
// PostgreSQL's disk_full error raised by a trigger) ends the stream with one line naming the cause and
// the database, the run still returns its summary, and what was committed before is intact.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { createClient } from '../../src/client/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { settings, silent } from '../helpers/mirror.js';
import { listOf, startHostileServer, type HostileServer } from './hostile-server.js';

let server: HostileServer;
beforeAll(async () => void (server = await startHostileServer()));
afterAll(() => server.close());

async function syncCharts(store: Store) {
  const client = createClient({ baseUrl: server.url, apiKey: 'k', retries: 0 });
  try {
    return await runSync({ client, store, logger: silent, settings: settings(), streams: resolveStreams(['charts']) });
  } finally {
    await client.close();
  }
}

const charts = (n: number, from: number, title = '') =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, title: `chart ${from + i} ${title}`, dashboards: [] }));

/** Makes every further write fail as a full disk does. */
async function fillDisk(store: Store): Promise<void> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(store.db);
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(store.db);
    return;
  }
  await sql`create function hostile_disk_full() returns trigger language plpgsql as $$
    begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(store.db);
  await sql`create trigger hostile_disk_full before insert or update on charts for each statement execute function hostile_disk_full()`.execute(
    store.db,
  );
}

for (const dialect of dialects) {
  describe(`storage errors (${dialect})`, () => {
    it('disk full: one line with the cause and the database, a summary, nothing committed lost', async () => {
      const t = await openTestStore(dialect);
      try {
        const first = charts(300, 1);
        server.serve(listOf((page, limit) => first.slice((page - 1) * limit, page * limit)));
        expect((await syncCharts(t.store)).outcome).toBe('success');
        await fillDisk(t.store);
        const more = [...first, ...charts(3000, 1000, 'x'.repeat(2000))];
        server.serve(listOf((page, limit) => more.slice((page - 1) * limit, page * limit)));
        const result = await syncCharts(t.store); // resolves: the summary is there
        const stats = result.streams[0]!;
        expect(stats.outcome).toBe('failed');
        expect(stats.error).toMatch(dialect === 'sqlite' ? /^the disk is full: .*mirror\.db \(/ : /^the disk is full: postgres:\/\/.* \(/);
        expect(stats.error).not.toMatch(/no transaction is active/);
        expect(stats.error!.split('\n')).toHaveLength(1);
        const kept = await t.store.db.selectFrom('charts').select('id').where('id', '<=', 300).execute();
        expect(kept).toHaveLength(300);
        if (dialect === 'sqlite') {
          const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.store.db);
          expect(rows[0]!.integrity_check).toBe('ok');
        }
      } finally {
        await t.cleanup();
      }
    });
  });
}
