// @end-to-end
// The usage ledger on both stores: reservations within day and month quotas, the unused rest given back,
// several workers (connections) on one database never passing one quota together, and held quotas.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuotaGate } from '../../src/budget/quota-gate.js';
import { QuotaError } from '../../src/budget/quota-error.js';
import { takePaceSlot } from '../../src/budget/postgres/pace-slot.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import type { Quotas } from '../../src/budget/quotas.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const quotas = (v1: Quotas['v1']): Quotas => ({ v1, tokenUnlocks: {}, monitoring: {}, open: {} });

/** The /v1 requests the ledger holds for one day (YYYY-MM-DD) or one month (YYYY-MM). */
async function requestsOf(t: TestStore, period: string): Promise<number> {
  const row =
    period.length === 7
      ? await t.store.db
          .selectFrom('usage_months')
          .select('requests')
          .where('family', '=', 'v1')
          .where('month', '=', period)
          .executeTakeFirst()
      : await t.store.db
          .selectFrom('usage_ledger')
          .select('requests')
          .where('family', '=', 'v1')
          .where('day', '=', period)
          .executeTakeFirst();
  return Number(row?.requests ?? 0);
}

/** The budget's tables: emptied between cases that share one store (a PostgreSQL database per case cost ~0.5 s each). */
const BUDGET_TABLES = ['usage_ledger', 'usage_months', 'usage_quotas', 'quota_holds', 'pace_slots'] as const;

for (const dialect of dialects) {
  describe(`usage ledger (${dialect})`, () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    beforeEach(async () => {
      for (const table of BUDGET_TABLES) await t.store.db.deleteFrom(table).execute();
    });
    afterAll(() => t?.cleanup());

    it('counts exactly the requests admitted once the gate settles, per UTC day', async () => {
      let now = new Date('2026-03-31T23:59:00Z');
      const ledger = new UsageLedger(t.store);
      const gate = new QuotaGate({ ledger, quotas: quotas({ perMonth: 1000 }), clock: () => now, blockSize: 10 });
      for (let i = 0; i < 7; i++) await gate.admit('v1');
      now = new Date('2026-04-01T00:01:00Z'); // a new day and month: the old block is given back
      for (let i = 0; i < 3; i++) await gate.admit('charts');
      await gate.settle();
      // Read in April, March's rows are March's; read in March, April's would count as March's (a clock ahead).
      expect([await requestsOf(t, '2026-03-31'), await requestsOf(t, '2026-03')]).toEqual([7, 7]);
      expect(await ledger.usage('v1', now)).toEqual({ today: 3, month: 3 });
    });

    it('refuses at the monthly quota, names it and its renewal, and admits again in the next month', async () => {
      let now = new Date('2026-05-10T08:00:00Z');
      const ledger = new UsageLedger(t.store);
      const gate = new QuotaGate({ ledger, quotas: quotas({ perMonth: 25, perDay: 20 }), clock: () => now, blockSize: 8 });
      let admitted = 0;
      const refusal = await (async () => {
        for (;;) {
          try {
            await gate.admit('v1');
            admitted++;
          } catch (error) {
            return error as QuotaError;
          }
        }
      })();
      expect(admitted).toBe(20);
      expect(refusal).toBeInstanceOf(QuotaError);
      expect(refusal.period).toBe('day');
      expect(refusal.message).toMatch(/\/v1 daily quota is spent \(20 of 20 requests\); it renews 2026-05-11 00:00 UTC/);
      now = new Date('2026-05-11T08:00:00Z');
      for (let i = 0; i < 5; i++) await gate.admit('v1');
      await expect(gate.admit('v1')).rejects.toThrow(/monthly quota is spent \(25 of 25 requests\); it renews 2026-06-01 00:00 UTC/);
      now = new Date('2026-06-01T00:00:01Z');
      await gate.admit('v1');
      await gate.settle();
      expect(await requestsOf(t, '2026-05')).toBe(25);
      expect((await ledger.usage('v1', now)).month).toBe(1);
    });

    it('lets several workers on one database together admit no more than the quota', async () => {
      const now = new Date('2026-07-15T10:00:00Z');
      const stores = [t.store, await t.openAnother(), await t.openAnother()];
      const gates = stores.map(
        (s) => new QuotaGate({ ledger: new UsageLedger(s), quotas: quotas({ perMonth: 101 }), clock: () => now, blockSize: 7 }),
      );
      const admitted = await Promise.all(
        gates.map(async (gate) => {
          let n = 0;
          // Each worker tries for more than the whole quota, in parallel bursts.
          await Promise.all(
            Array.from({ length: 4 }, async () => {
              for (let i = 0; i < 40; i++) {
                try {
                  await gate.admit('v1');
                  n++;
                } catch (error) {
                  if (!(error instanceof QuotaError)) throw error;
                  return;
                }
              }
            }),
          );
          return n;
        }),
      );
      await Promise.all(gates.map((g) => g.settle()));
      expect(admitted.reduce((a, b) => a + b, 0)).toBe(101);
      expect((await new UsageLedger(t.store).usage('v1', now)).month).toBe(101);
    });

    it('holds a family the service said is spent, for every worker, until the announced renewal', async () => {
      let now = new Date('2026-08-01T10:00:00Z');
      const ledger = new UsageLedger(t.store);
      await ledger.hold({ family: 'monitoring', until: new Date('2026-08-01T11:00:00Z'), reason: 'quota exceeded' }, now);
      const other = new QuotaGate({ ledger: new UsageLedger(await t.openAnother()), quotas: quotas({}), clock: () => now });
      await expect(other.admit('monitoring')).rejects.toThrow(
        /the service says the monitoring allowance is spent \(quota exceeded\); nothing more is sent until 2026-08-01 11:00 UTC/,
      );
      await other.admit('v1'); // another family is not held
      now = new Date('2026-08-01T11:00:01Z');
      await other.admit('monitoring');
      await other.settle();
      expect((await ledger.usage('monitoring', now)).today).toBe(1);
    });

    it('keeps an absurd hold within a month, even one an older release stored, and releases it on request', async () => {
      const now = new Date('2026-08-01T10:00:00Z');
      const ledger = new UsageLedger(t.store);
      await ledger.hold({ family: 'monitoring', until: new Date(8.64e15), reason: 'Retry-After: 1000000000000' }, now);
      expect((await ledger.holdOf('monitoring', now))?.until.toISOString()).toBe('2026-09-01T10:00:00.000Z');
      // As a release before the clamp wrote it (the year 33715 on SQLite; 9999 is as far as both stores go).
      await t.store.db.updateTable('quota_holds').set({ until: '9999-12-31T00:00:00.000Z' }).where('family', '=', 'monitoring').execute();
      expect((await ledger.holdOf('monitoring', now))?.until.toISOString()).toBe('2026-09-01T10:00:00.000Z');
      expect((await ledger.holds(now)).map((h) => h.family)).toEqual(['monitoring']);
      expect((await ledger.releaseHold('monitoring', now))?.reason).toBe('Retry-After: 1000000000000');
      expect(await ledger.holdOf('monitoring', now)).toBeNull();
      expect(await ledger.releaseHold('monitoring', now)).toBeNull();
      const gate = new QuotaGate({ ledger, quotas: quotas({}), clock: () => now });
      await gate.admit('monitoring'); // released: the family is asked again
      await gate.settle();
    });

    it("v_usage sets each day's requests beside the quotas the runs worked under, and sums the month so far", async () => {
      let now = new Date('2026-09-29T10:00:00Z');
      const ledger = new UsageLedger(t.store);
      const run = async (n: number, q: Quotas['v1']) => {
        const gate = new QuotaGate({ ledger, quotas: quotas(q), clock: () => now, blockSize: 4 });
        for (let i = 0; i < n; i++) await gate.admit('v1');
        await gate.settle();
      };
      await run(7, { perMonth: 100, perDay: 20 });
      now = new Date('2026-09-30T10:00:00Z');
      await run(5, { perMonth: 100 });
      now = new Date('2026-10-01T10:00:00Z'); // a new month
      await run(3, { perMonth: 200 });
      const rows = (await t.store.db
        .selectFrom('v_usage' as never)
        .selectAll()
        .where('family' as never, '=', 'v1' as never)
        .execute()) as Record<string, unknown>[];
      const plain = rows
        .map((r): Record<string, unknown> & { day: string } => ({ ...r, day: String(r.day).slice(0, 10) }))
        .sort((a, b) => (a.day < b.day ? -1 : 1))
        .map((r) => [
          r.day,
          Number(r.requests),
          r.day_quota,
          r.day_share,
          r.month,
          Number(r.month_requests),
          Number(r.month_quota),
          r.month_share,
        ]);
      expect(plain).toEqual([
        ['2026-09-29', 7, 20, 0.35, '2026-09', 7, 100, 0.07],
        ['2026-09-30', 5, null, null, '2026-09', 12, 100, 0.12],
        ['2026-10-01', 3, null, null, '2026-10', 3, 200, 0.015],
      ]);
      // The view's sums are the ledger's.
      expect(await requestsOf(t, '2026-09')).toBe(12);
      expect((await ledger.usage('v1', new Date('2026-10-01T00:00:00Z'))).month).toBe(3);
    });

    it('charges nothing for a request given back (it never reached the service)', async () => {
      const now = new Date('2026-09-02T10:00:00Z');
      const ledger = new UsageLedger(t.store);
      const gate = new QuotaGate({ ledger, quotas: quotas({ perMonth: 100 }), clock: () => now, blockSize: 10 });
      for (let i = 0; i < 6; i++) {
        await gate.admit('v1');
        gate.refund('v1');
      }
      await gate.admit('v1');
      await gate.settle();
      expect((await ledger.usage('v1', now)).today).toBe(1);
    });

    it('reserves the next block once half the current one is spent, so admissions do not wait on a busy store', async () => {
      const now = new Date('2026-09-03T10:00:00Z');
      const ledger = new UsageLedger(t.store);
      const reserve = ledger.reserve.bind(ledger);
      let busy: Promise<void> | null = null; // the store answers only once a long write commits
      let reserved = 0;
      ledger.reserve = async (...args: Parameters<UsageLedger['reserve']>) => {
        if (busy) await busy;
        const got = await reserve(...args);
        reserved += got.granted;
        return got;
      };
      const gate = new QuotaGate({ ledger, quotas: quotas({ perMonth: 1000 }), clock: () => now, blockSize: 4 });
      await gate.admit('v1');
      await gate.admit('v1'); // half the block spent: the next is reserved meanwhile
      await vi.waitFor(() => expect(reserved).toBeGreaterThanOrEqual(8));
      let commit = () => {};
      busy = new Promise((resolve) => {
        commit = resolve;
      });
      for (let i = 0; i < 4; i++) await gate.admit('v1'); // past the first block, and the store never waited on
      commit();
      await gate.settle();
      expect((await ledger.usage('v1', now)).today).toBe(6);
    });

    it('charges nothing for a request given back while its block is being refilled', async () => {
      const now = new Date('2026-09-02T10:00:00Z');
      const ledger = new UsageLedger(t.store);
      const gate = new QuotaGate({ ledger, quotas: quotas({ perMonth: 100 }), clock: () => now, blockSize: 2 });
      await gate.admit('v1');
      await gate.admit('v1'); // the block is spent
      const refilling = gate.admit('v1'); // the next admit refills: no block until the ledger answers
      gate.refund('v1'); // the second request never left
      await refilling;
      await gate.settle();
      expect((await ledger.usage('v1', now)).today).toBe(2);
    });

    // The shared minute lives in the database of a PostgreSQL mirror (its pace_slots table, emptied between cases).
    it.runIf(dialect === 'postgres')('gives three workers of one database slots one interval apart, by the database clock', async () => {
      const stores = [t.store, await t.openAnother(), await t.openAnother()];
      const ledgers = stores.map((s) => new UsageLedger(s));
      // The ledger's wait is the slot's start less the moment its statement ran: on a busy machine statements
      // run late, so the slots are checked by their start (the database's clock), not by the waits.
      const waits = await Promise.all(Array.from({ length: 15 }, (_, i) => ledgers[i % 3]!.paceSlot('monitoring', 200)));
      expect(waits.every((w) => w >= 0)).toBe(true);
      const slots = await Promise.all(Array.from({ length: 15 }, (_, i) => takePaceSlot(stores[i % 3]!.db, 'monitoring', 200)));
      const starts = slots.map((s) => s.startMs).sort((a, b) => a - b);
      // Each slot starts at least an interval after the one before it (microsecond rounding aside).
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(199.99);
    });

    // One machine paces in its process: a SQLite mirror keeps no shared minute.
    it.runIf(dialect === 'sqlite')('keeps no shared minute on SQLite', async () => {
      expect(await new UsageLedger(t.store).paceSlot('monitoring', 200)).toBe(0);
      expect(await new UsageLedger(t.store).paceSlot('monitoring', 200)).toBe(0);
    });
  });
}
