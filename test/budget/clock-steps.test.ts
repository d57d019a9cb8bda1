// @end-to-end
// Budgets that survive a clock, on both stores: a clock stepped back cannot free requests already sent
// (walked over many days of a year, month starts and ends included), workers whose clocks sit on both
// sides of UTC midnight never pass a quota together, and a hold learned under a clock that ran ahead
// lasts no longer than the present month.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QuotaGate } from '../../src/budget/quota-gate.js';
import { QuotaError } from '../../src/budget/quota-error.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import type { Quotas } from '../../src/budget/quotas.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const quotas = (v1: Quotas['v1']): Quotas => ({ v1, tokenUnlocks: {}, monitoring: {}, open: {} });
const DAY = 24 * 60 * 60_000;

/** Admits until the gate refuses; how many it admitted. */
async function spend(gate: QuotaGate, most = 1000): Promise<number> {
  let n = 0;
  for (; n < most; n++) {
    try {
      await gate.admit('v1');
    } catch (error) {
      if (error instanceof QuotaError) break;
      throw error;
    }
  }
  await gate.settle();
  return n;
}

/** Every tenth day of 2027, and the days on either side of each month's end. */
function walkedDays(): Date[] {
  const days: Date[] = [];
  for (let t = Date.UTC(2027, 0, 1, 9); t < Date.UTC(2028, 0, 1); t += 10 * DAY) days.push(new Date(t));
  for (let m = 1; m <= 12; m++) days.push(new Date(Date.UTC(2027, m, 1, 0, 30)));
  return days;
}

/**
 * PostgreSQL walks one day of each kind the SQLite walk covers: the ledger's calendar (which day and month
 * a request counts in) is TypeScript shared by both stores, with no PostgreSQL-only SQL, so the store only
 * has to keep the counts. A new year's day whose step back is last year (1 January), an ordinary day
 * (11 January), a month's last day whose step on is the next month (31 January), a 1st whose step back is
 * the end of a short month (1 March, back to 28 February) and the year's end (1 January 2028, back to 31
 * December).
 */
const PG_DAYS = new Set([
  '2027-01-01T09:00:00.000Z',
  '2027-01-11T09:00:00.000Z',
  '2027-01-31T09:00:00.000Z',
  '2027-03-01T00:30:00.000Z',
  '2028-01-01T00:30:00.000Z',
]);
const daysOn = (dialect: string): Date[] =>
  dialect === 'postgres' ? walkedDays().filter((d) => PG_DAYS.has(d.toISOString())) : walkedDays();

for (const dialect of dialects) {
  describe(`budgets under a stepping clock (${dialect})`, () => {
    // One store for the three cases: each starts from empty budget tables, which is all they read.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(() => t?.cleanup());
    beforeEach(async () => {
      for (const table of ['usage_ledger', 'usage_months', 'quota_holds'] as const) await t.store.db.deleteFrom(table).execute();
    });

    it('a clock stepped back a day frees nothing already sent, on any day of the year', async () => {
      const days = daysOn(dialect);
      expect(days.length).toBe(dialect === 'postgres' ? PG_DAYS.size : 49);
      for (const today of days) {
        await t.store.db.deleteFrom('usage_ledger').execute();
        await t.store.db.deleteFrom('usage_months').execute();
        let now = today;
        const ledger = new UsageLedger(t.store);
        const gate = () => new QuotaGate({ ledger, quotas: quotas({ perMonth: 40, perDay: 30 }), clock: () => now, blockSize: 4 });
        expect(await spend(gate())).toBe(30); // the day's allowance
        now = new Date(today.getTime() - DAY); // "yesterday", perhaps last month: today's 30 were sent all the same
        expect(await spend(gate()), `back from ${today.toISOString()}`).toBe(0);
        now = new Date(today.getTime() + DAY);
        const newMonth = now.getUTCMonth() !== today.getUTCMonth();
        expect(await spend(gate()), `on after ${today.toISOString()}`).toBe(newMonth ? 30 : 10);
      }
    });

    it('two workers whose clocks straddle UTC midnight never pass the month together', async () => {
      for (const midnight of [Date.UTC(2027, 2, 15), Date.UTC(2027, 6, 31)]) {
        await t.store.db.deleteFrom('usage_ledger').execute();
        await t.store.db.deleteFrom('usage_months').execute();
        const behind = new Date(midnight - 2_000);
        const ahead = new Date(midnight + 2_000);
        const sameMonth = behind.getUTCMonth() === ahead.getUTCMonth();
        const workers = [behind, ahead, behind].map(
          (clock, i) =>
            new QuotaGate({
              ledger: new UsageLedger(t.store),
              quotas: quotas({ perMonth: 50 }),
              clock: () => clock,
              blockSize: 3 + i,
            }),
        );
        const admitted = (await Promise.all(workers.map((w) => spend(w)))).reduce((a, b) => a + b, 0);
        // Within one month, 50 in all. Across a month's end each clock's month is counted apart, and a day
        // the other clock put later counts against the earlier one: at most one month's 50 each side.
        if (sameMonth) expect(admitted).toBe(50);
        else expect(admitted).toBeLessThanOrEqual(100);
        const rows = await t.store.db.selectFrom('usage_ledger').select(['day', 'requests']).execute();
        expect(rows.reduce((a, r) => a + Number(r.requests), 0)).toBe(admitted);
      }
    });

    it('a hold learned under a clock a year ahead lasts until the present month renews', async () => {
      const present = new Date('2027-03-10T12:00:00Z');
      const ahead = new Date(present.getTime() + 365 * DAY);
      const ledger = new UsageLedger(t.store);
      await ledger.hold({ family: 'v1', until: new Date(ahead.getTime() + 2 * 3600_000), reason: 'quota exceeded' }, ahead);
      // The clock ahead itself sees the service's own renewal, two hours on.
      expect((await ledger.holdOf('v1', ahead))?.until.toISOString()).toBe('2028-03-09T14:00:00.000Z');
      // A reader of the present (status, budget) sees it last until the present month renews, and writes nothing.
      expect((await ledger.holdOf('v1', present))!.until.toISOString()).toBe('2027-04-01T00:00:00.000Z');
      const setAt = async () => (await t.store.db.selectFrom('quota_holds').select('set_at').executeTakeFirstOrThrow()).set_at;
      expect(String(await setAt())).toBe(ahead.toISOString());
      // A run of the present counts a month from itself, once: it does not slide with the clock.
      const held = await ledger.holdForRun('v1', present);
      expect(held).not.toBeNull();
      expect(held!.until.getTime()).toBeLessThanOrEqual(present.getTime() + 31 * DAY);
      expect((await ledger.holdForRun('v1', new Date(present.getTime() + DAY)))?.until).toEqual(held!.until);
      expect((await ledger.holdOf('v1', new Date(present.getTime() + DAY)))?.until).toEqual(held!.until);
      expect(await ledger.holdForRun('v1', new Date(present.getTime() + 32 * DAY))).toBeNull();
    });
  });
}
