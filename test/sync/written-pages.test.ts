import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { glossary } from '../../src/catalog/v1.js';
import { contentHash } from '../../src/content-hash.js';
import { afterParsing } from '../../src/sync/full-collections.js';
import { openListPage, WrittenPages } from '../../src/sync/list-page.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const REQUEST = '/v1/glossary?page=1&limit=1000';
/** A page of the two glossary entries, the first titled `first`. */
const pageOf = (first: string) =>
  Buffer.from(
    JSON.stringify({
      page: 1,
      total: 2,
      data: [
        { id: 1, title: first },
        { id: 2, title: 'b' },
      ],
    }),
  );
const body = pageOf('a');

for (const dialect of dialects) {
  describe(`pages as last written, read once per pass (${dialect})`, () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
      const row = {
        request: REQUEST,
        body_hash: contentHash(body),
        records: 2,
        keys: JSON.stringify(['1', '2']),
        synced_at: '2026-11-26T00:00:00.000Z',
      };
      await t.store.db
        .insertInto('page_hashes')
        .values({ stream: 'glossary', variant: '', page: 1, ...row })
        .execute();
    });
    afterAll(() => t.cleanup());

    it('opens a page byte for byte as last written without parsing it: its count and keys come from the store', async () => {
      const written = await WrittenPages.read(t.store, 'incremental', glossary, '');
      const page = await openListPage(glossary, written, { page: 1, request: REQUEST, body });
      expect(page).toMatchObject({ records: null, count: 2, keys: ['1', '2'] });
      // What the page guard remembers it by: its first key, as it would be from the parsed page.
      expect(page.signatures[0]).toBe('key:1');
    });

    it('parses a page whose bytes, request or number differ, and every page of a full pass', async () => {
      const changed = pageOf('A');
      const incremental = await WrittenPages.read(t.store, 'incremental', glossary, '');
      const full = await WrittenPages.read(t.store, 'full', glossary, '');
      const opened = [
        await openListPage(glossary, incremental, { page: 1, request: REQUEST, body: changed }),
        await openListPage(glossary, incremental, { page: 1, request: `${REQUEST}&x=1`, body }),
        await openListPage(glossary, incremental, { page: 2, request: REQUEST, body }),
        await openListPage(glossary, full, { page: 1, request: REQUEST, body }),
        await openListPage(glossary, await WrittenPages.read(t.store, 'incremental', glossary, 'other'), {
          page: 1,
          request: REQUEST,
          body,
        }),
      ];
      for (const page of opened) expect(page.records).toHaveLength(2);
    });

    it('counts the bytes of each page parsed towards the next full collection, and none of a page skipped', async () => {
      const written = await WrittenPages.read(t.store, 'incremental', glossary, '');
      const parsed = vi.spyOn(afterParsing, 'parsed');
      try {
        const changed = pageOf('A');
        await openListPage(glossary, written, { page: 1, request: REQUEST, body });
        await openListPage(glossary, written, { page: 1, request: REQUEST, body: changed });
        expect(parsed.mock.calls).toEqual([[changed.length]]);
      } finally {
        parsed.mockRestore();
      }
    });
  });
}
