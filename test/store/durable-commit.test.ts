// A transaction that acknowledges something to the outside (a webhook delivery) commits durably:
// on SQLite with synchronous=FULL (fsync), then back to the mirror's NORMAL; on PostgreSQL with
// synchronous_commit on for that transaction, where the mirror's own commits run with it off.
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore } from '../helpers/stores.js';

const level = async (db: Kysely<any>) =>
  Number(((await sql.raw('pragma synchronous').execute(db)).rows[0] as { synchronous: number }).synchronous);

describe('durable commits on sqlite', () => {
  it('raises synchronous to FULL for a durable transaction only, and restores NORMAL after', async () => {
    const test = await openTestStore('sqlite');
    try {
      expect(await level(test.store.db)).toBe(1);
      const inside = await test.store.transaction(async (tx) => level(tx.db), { durable: true });
      expect(inside).toBe(2);
      expect(await level(test.store.db)).toBe(1);
      const concurrent = await Promise.all([
        test.store.transaction(async (tx) => level(tx.db), { durable: true }),
        test.store.transaction(async (tx) => level(tx.db), { durable: true }),
      ]);
      expect(concurrent).toEqual([2, 2]);
      expect(await level(test.store.db)).toBe(1);
      await expect(
        test.store.transaction(
          async () => {
            throw new Error('boom');
          },
          { durable: true },
        ),
      ).rejects.toThrow('boom');
      expect(await level(test.store.db)).toBe(1);
    } finally {
      await test.cleanup();
    }
  });
});

describe('durable commits on postgres', () => {
  const setting = async (db: Kysely<any>) =>
    ((await sql.raw('show synchronous_commit').execute(db)).rows[0] as { synchronous_commit: string }).synchronous_commit;

  it('commits the mirror asynchronously and a durable transaction synchronously', async () => {
    const test = await openTestStore('postgres');
    try {
      expect(await test.store.transaction(async (tx) => setting(tx.db))).toBe('off');
      expect(await test.store.transaction(async (tx) => setting(tx.db), { durable: true })).toBe('on');
      expect(await test.store.transaction(async (tx) => setting(tx.db))).toBe('off');
    } finally {
      await test.cleanup();
    }
  });
});
