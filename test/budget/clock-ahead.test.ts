// @end-to-end
// A clock that ran ahead neither frees nor starves a month, on both stores: the requests it dated in a
// later month count once, in the month the mirror is in (what status and budget read before any run, and
// where the next run moves them), the renewal said is the present's first of next month, and the months
// after renew in full. Walked over month ends, the year's end, 29 February 2028 and 00:00 to the millisecond.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuotaGate } from '../../src/budget/quota-gate.js';
import { QuotaError } from '../../src/budget/quota-error.js';
import { renewsAt, type Quotas } from '../../src/budget/quotas.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const quotas = (v1: Quotas['v1']): Quotas => ({ v1, tokenUnlocks: {}, monitoring: {}, open: {} });
const DAY = 24 * 60 * 60_000;

/** Admits until the gate refuses: how many, and the refusal. */
async function spend(gate: QuotaGate, most = 200): Promise<{ sent: number; refusal: QuotaError | null }> {
  let sent = 0;
  let refusal: QuotaError | null = null;
  for (; sent < most; sent++) {
    try {
      await gate.admit('v1');
    } catch (error) {
      if (!(error instanceof QuotaError)) throw error;
      refusal = error;
      break;
    }
  }
  await gate.settle();
  return { sent, refusal };
}

/** Each month's first millisecond and last, the year's end, leap day and a plain mid-month afternoon. */
function presents(): Date[] {
  const at: Date[] = [];
  for (let m = 0; m < 14; m++) at.push(new Date(Date.UTC(2027, m, 1)), new Date(Date.UTC(2027, m, 1) - 1));
  at.push(new Date('2028-02-29T00:00:00.000Z'), new Date('2028-02-29T23:59:59.999Z'), new Date('2027-06-15T13:17:00Z'));
  return at;
}

for (const dialect of dialects) {
  describe(`a clock that ran ahead (${dialect})`, () => {
    let t: TestStore;
    beforeEach(async () => {
      t = await openTestStore(dialect);
    });
    afterEach(() => t.cleanup());

    const gate = (clock: Date, v1: Quotas['v1']) =>
      new QuotaGate({ ledger: new UsageLedger(t.store), quotas: quotas(v1), clock: () => clock, blockSize: 4 });
    const rows = async () =>
      (await t.store.db.selectFrom('usage_ledger').select(['day', 'requests']).where('family', '=', 'v1').execute())
        .map((r) => ({ day: String(r.day), requests: Number(r.requests) }))
        .filter((r) => r.requests !== 0);
    const months = async () =>
      (await t.store.db.selectFrom('usage_months').select(['month', 'requests']).where('family', '=', 'v1').execute())
        .map((r) => ({ month: String(r.month), requests: Number(r.requests) }))
        .filter((r) => r.requests !== 0);

    it('counts its requests once, in the present month, and the next month renews in full', async () => {
      const ledger = new UsageLedger(t.store);
      for (const [i, present] of presents().entries()) {
        {
          const ahead = [365 * DAY, 40 * DAY, 3 * DAY][i % 3]!;
          const label = `${present.toISOString()} + ${ahead / DAY} days`;
          await t.store.db.deleteFrom('usage_ledger').execute();
          await t.store.db.deleteFrom('usage_months').execute();
          expect((await spend(gate(new Date(present.getTime() + ahead), { perMonth: 20 }))).sent, label).toBe(20);
          // Read before any run (status, budget): already counted in the present day and month.
          expect(await ledger.usage('v1', present), label).toEqual({ today: 20, month: 20 });
          const now = await spend(gate(present, { perMonth: 20 }));
          expect(now.sent, label).toBe(0);
          expect(now.refusal?.renewsAt.toISOString(), label).toBe(renewsAt('month', present).toISOString());
          expect(now.refusal?.message, label).toMatch(/monthly quota is spent \(20 of 20 requests\)/);
          // Moved into the present, once: nothing is left dated later, and the sums still agree.
          const day = present.toISOString().slice(0, 10);
          expect(await rows(), label).toEqual([{ day, requests: 20 }]);
          expect(await months(), label).toEqual([{ month: day.slice(0, 7), requests: 20 }]);
          expect(await ledger.usage('v1', present), label).toEqual({ today: 20, month: 20 });
          // The next month renews in full, and says its own renewal when spent.
          const next = renewsAt('month', present);
          expect(await ledger.usage('v1', next), label).toEqual({ today: 0, month: 0 });
          const then = await spend(gate(next, { perMonth: 20 }));
          expect(then.sent, label).toBe(20);
          expect(then.refusal?.renewsAt.toISOString(), label).toBe(renewsAt('month', next).toISOString());
          // Nothing waits at the day the clock had said: when it comes, none of those requests count again.
          const days = (await rows()).map((r) => r.day).sort();
          expect(days, label).toEqual([day, next.toISOString().slice(0, 10)]);
        }
      }
    });

    it('counts them against the present day too, and a clock a day ahead of a neighbour moves nothing', async () => {
      const present = new Date('2027-12-31T23:59:59.999Z');
      const ledger = new UsageLedger(t.store);
      expect((await spend(gate(new Date(present.getTime() + 300 * DAY), { perDay: 12, perMonth: 30 }))).sent).toBe(12);
      const today = await spend(gate(present, { perDay: 12, perMonth: 30 }));
      expect([today.sent, today.refusal?.period, today.refusal?.renewsAt.toISOString()]).toEqual([0, 'day', '2028-01-01T00:00:00.000Z']);
      // A neighbour whose clock reads tomorrow (2 s ahead, past midnight): its day is left where it is.
      expect((await spend(gate(new Date(present.getTime() + 2_000), { perDay: 12, perMonth: 30 }))).sent).toBe(12);
      expect(await rows()).toEqual(
        expect.arrayContaining([
          { day: '2027-12-31', requests: 12 },
          { day: '2028-01-01', requests: 12 },
        ]),
      );
      expect(await ledger.usage('v1', present)).toEqual({ today: 24, month: 24 });
    });

    it('says the present renewal of a hold learned under a clock ahead', async () => {
      const ledger = new UsageLedger(t.store);
      for (const present of presents()) {
        await t.store.db.deleteFrom('quota_holds').execute();
        const ahead = new Date(present.getTime() + 200 * DAY);
        await ledger.hold({ family: 'v1', until: renewsAt('month', ahead), reason: 'Monthly request quota exceeded' }, ahead);
        expect((await ledger.holdOf('v1', present))?.until.toISOString(), present.toISOString()).toBe(
          renewsAt('month', present).toISOString(),
        );
        const run = await spend(gate(present, { perMonth: 20 }));
        expect([run.sent, run.refusal?.renewsAt.toISOString()]).toEqual([0, renewsAt('month', present).toISOString()]);
        expect(await ledger.holdOf('v1', renewsAt('month', present))).toBeNull();
      }
    });
  });
}
