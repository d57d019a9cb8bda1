// The usage ledger in the store: requests are reserved in small blocks before they are sent and the
// unused rest of a block is given back, so the ledger never lets several workers together pass a
// quota, costs one write per block rather than per request, and ends each run equal to what was sent.
// A worker that dies holding blocks over-counts by at most a block and a half (quota-gate.ts): the safe side.
import type { Kysely } from 'kysely';
import type { BudgetTables } from './budget-tables.js';
import type { Store } from '../store/types.js';
import { sharedPaceOf } from './shared-pace.js';
import { monthStartDay, renewsAt, utcDay, type FamilyQuota, type QuotaFamily } from './quotas.js';

export interface Usage {
  today: number;
  month: number;
}

export interface QuotaHold {
  family: QuotaFamily;
  until: Date;
  reason: string;
}

/** Which allowance refused a reservation. */
export type SpentPeriod = 'day' | 'month';

export type Reservation = { granted: number } | { granted: 0; spent: SpentPeriod; limit: number; used: number };

export class UsageLedger {
  constructor(private readonly store: Store) {}

  /** Reserves up to `want` requests of `family` for the day of `at`, within its day and month quotas. */
  async reserve(family: QuotaFamily, want: number, quota: FamilyQuota, at: Date): Promise<Reservation> {
    const day = utcDay(at);
    const month = day.slice(0, 7);
    await this.ensureRows(family, day, month);
    await this.bringForward(family, day);
    // Rows dated tomorrow exist only when a clock stepped back or another worker's runs a little ahead:
    // their requests were sent all the same, so they count against today and this month too.
    const laterDays = quota.perDay === undefined ? 0 : await this.sum(family, nextDay(day), null);
    const laterMonths = quota.perMonth === undefined ? 0 : await this.monthsAfter(family, month);
    for (let tries = 0; tries < 20; tries++) {
      const today = laterDays + (await this.requestsOn(family, day));
      const monthSpent = laterMonths + (await this.requestsIn(family, month));
      const dayRoom = quota.perDay === undefined ? Infinity : quota.perDay - today;
      const monthRoom = quota.perMonth === undefined ? Infinity : quota.perMonth - monthSpent;
      if (Math.min(dayRoom, monthRoom) <= 0) {
        return dayRoom <= 0
          ? { granted: 0, spent: 'day', limit: quota.perDay!, used: today }
          : { granted: 0, spent: 'month', limit: quota.perMonth!, used: monthSpent };
      }
      const grant = Math.min(want, dayRoom, monthRoom);
      // Each row is updated only while it has room, which is atomic on both stores (PostgreSQL re-checks
      // after waiting on a concurrent update): the month's row serialises workers on any day of it.
      if (await this.add(family, { month }, grant, quota.perMonth === undefined ? null : quota.perMonth - laterMonths)) {
        if (await this.add(family, { day }, grant, quota.perDay === undefined ? null : quota.perDay - laterDays)) return { granted: grant };
        await this.add(family, { month }, -grant, null);
      }
      // Another worker took some meanwhile: read again and retry with what is left.
    }
    return { granted: 0, spent: quota.perDay !== undefined ? 'day' : 'month', limit: quota.perDay ?? quota.perMonth ?? 0, used: NaN };
  }

  private async ensureRows(family: QuotaFamily, day: string, month: string): Promise<void> {
    await this.store.db
      .insertInto('usage_ledger')
      .values({ family, day, requests: 0 })
      .onConflict((oc) => oc.columns(['family', 'day']).doNothing())
      .execute();
    await this.store.db
      .insertInto('usage_months')
      .values({ family, month, requests: 0 })
      .onConflict((oc) => oc.columns(['family', 'month']).doNothing())
      .execute();
  }

  /**
   * Rows dated beyond tomorrow were written under a clock that ran ahead (a neighbour's clock a little
   * ahead writes no later than tomorrow): their requests were sent all the same, before now. They move
   * into today and this month, once, so they count in the month the mirror is in; left where they were,
   * they would starve every month until the clock caught up with them, and then count again.
   */
  private async bringForward(family: QuotaFamily, day: string): Promise<void> {
    const horizon = nextDay(day);
    const future = await this.store.db
      .selectFrom('usage_ledger')
      .select('day')
      .where('family', '=', family)
      .where('day', '>', horizon)
      .executeTakeFirst();
    if (!future) return;
    await this.store.transaction(async (tx) => {
      // DELETE … RETURNING hands each row to one worker only, with every request counted in it so far.
      const moved = await tx.db
        .deleteFrom('usage_ledger')
        .where('family', '=', family)
        .where('day', '>', horizon)
        .returning(['day', 'requests'])
        .execute();
      let total = 0;
      for (const row of moved) {
        total += Number(row.requests);
        await addTo(tx.db, family, { month: String(row.day).slice(0, 7) }, -Number(row.requests), null);
      }
      await addTo(tx.db, family, { day }, total, null);
      await addTo(tx.db, family, { month: day.slice(0, 7) }, total, null);
      await tx.db
        .deleteFrom('usage_months')
        .where('family', '=', family)
        .where('month', '>', horizon.slice(0, 7))
        .where('requests', '=', 0)
        .execute();
    });
  }

  private add(family: QuotaFamily, row: { day: string } | { month: string }, count: number, limit: number | null): Promise<boolean> {
    return addTo(this.store.db, family, row, count, limit);
  }

  /** Records the quotas a run works under, for the family and the day of `at` (v_usage shows them beside the counts). */
  async recordQuotas(family: QuotaFamily, quota: FamilyQuota, at: Date): Promise<void> {
    const row = {
      per_day: quota.perDay ?? null,
      per_month: quota.perMonth ?? null,
      per_minute: quota.perMinute ?? null,
      set_at: at.toISOString(),
    };
    await this.store.db
      .insertInto('usage_quotas')
      .values({ family, day: utcDay(at), ...row })
      .onConflict((oc) => oc.columns(['family', 'day']).doUpdateSet(row))
      .execute();
  }

  /** Gives back requests reserved on `day` and never sent. */
  async release(family: QuotaFamily, day: string, count: number): Promise<void> {
    if (count <= 0) return;
    await this.add(family, { day }, -count, null);
    await this.add(family, { month: day.slice(0, 7) }, -count, null);
  }

  /**
   * Requests counted on the day and in the calendar month (UTC) of `at`, every worker's together, as a run
   * counts them: rows dated later (a clock that ran ahead) count in the day and the month of `at`. Only
   * reads; the next run moves such rows into its own day (bringForward), which changes no figure here.
   */
  async usage(family: QuotaFamily, at: Date): Promise<Usage> {
    return { today: await this.sum(family, utcDay(at), null), month: await this.sum(family, monthStartDay(at), null) };
  }

  /** Per day, for `budget --days`: the last `days` days' counts of every family. */
  async history(since: string): Promise<{ family: string; day: string; requests: number }[]> {
    const rows = await this.store.db
      .selectFrom('usage_ledger')
      .select(['family', 'day', 'requests'])
      .where('day', '>=', since)
      .orderBy('day')
      .orderBy('family')
      .execute();
    return rows.map((r) => ({ family: String(r.family), day: String(r.day), requests: Number(r.requests) }));
  }

  async hold(h: QuotaHold, at: Date): Promise<void> {
    const row = { until: withinReason(h.until, at).toISOString(), reason: h.reason, set_at: at.toISOString() };
    await this.store.db
      .insertInto('quota_holds')
      .values({ family: h.family, ...row })
      .onConflict((oc) => oc.column('family').doUpdateSet(row))
      .execute();
  }

  /**
   * The service's own "allowance spent" for a family, while it lasts: never beyond a month from when it
   * was set (an absurd header an older release believed), nor from now. One set under a clock ahead of
   * `at` was reckoned from that clock: it lasts at most until the longest quota period renews here, the
   * first of next month, so the renewal said is the present's, not the clock's that ran ahead.
   * Only reads: `status`, `budget` and the daemon's health ask it on a mirror they may not write.
   */
  async holdOf(family: QuotaFamily, at: Date): Promise<QuotaHold | null> {
    const row = await this.holdRow(family);
    if (!row) return null;
    const setAt = Number.isNaN(row.setAt.getTime()) ? at : row.setAt;
    const latest = setAt.getTime() > at.getTime() ? renewsAt('month', at) : new Date(setAt.getTime() + LONGEST_HOLD_MS);
    const until = withinReason(row.until.getTime() <= latest.getTime() ? row.until : latest, at);
    return until.getTime() > at.getTime() ? { family, until, reason: row.reason } : null;
  }

  /**
   * The hold as a run works under it (the quota gate): one set "later" than now (a clock ran ahead then, or
   * runs behind now) is dated again from now, once, so that its month does not slide with the clock.
   */
  async holdForRun(family: QuotaFamily, at: Date): Promise<QuotaHold | null> {
    const row = await this.holdRow(family);
    const held = await this.holdOf(family, at);
    if (row && held && !(row.setAt.getTime() <= at.getTime())) await this.hold(held, at);
    return held;
  }

  private async holdRow(family: QuotaFamily): Promise<{ until: Date; setAt: Date; reason: string } | null> {
    const row = await this.store.db
      .selectFrom('quota_holds')
      .select(['until', 'reason', 'set_at'])
      .where('family', '=', family)
      .executeTakeFirst();
    return row ? { until: new Date(String(row.until)), setAt: new Date(String(row.set_at)), reason: String(row.reason) } : null;
  }

  /** Clears a family's hold (`budget --release`): the next request asks the service again. Returns the hold cleared. */
  async releaseHold(family: QuotaFamily, at: Date): Promise<QuotaHold | null> {
    const held = await this.holdOf(family, at);
    await this.store.db.deleteFrom('quota_holds').where('family', '=', family).execute();
    return held;
  }

  /** Every hold in force at `at`. */
  async holds(at: Date): Promise<QuotaHold[]> {
    const rows = await this.store.db.selectFrom('quota_holds').select('family').execute();
    const held = await Promise.all(rows.map((r) => this.holdOf(String(r.family) as QuotaFamily, at)));
    return held.filter((h): h is QuotaHold => h !== null);
  }

  /** Takes the family's next slot of the pace every worker of this database shares; ms to wait (0 where none is shared). */
  async paceSlot(family: QuotaFamily, intervalMs: number): Promise<number> {
    const shared = sharedPaceOf(this.store);
    return shared ? (await shared.take(this.store.db, family, intervalMs)).waitMs : 0;
  }

  private async requestsOn(family: QuotaFamily, day: string): Promise<number> {
    const row = await this.store.db
      .selectFrom('usage_ledger')
      .select('requests')
      .where('family', '=', family)
      .where('day', '=', day)
      .executeTakeFirst();
    return Number(row?.requests ?? 0);
  }

  private async requestsIn(family: QuotaFamily, month: string): Promise<number> {
    const row = await this.store.db
      .selectFrom('usage_months')
      .select('requests')
      .where('family', '=', family)
      .where('month', '=', month)
      .executeTakeFirst();
    return Number(row?.requests ?? 0);
  }

  /** Requests counted in months after `month` (a clock that stepped back over a month's end). */
  private async monthsAfter(family: QuotaFamily, month: string): Promise<number> {
    const row = (await this.store.db
      .selectFrom('usage_months')
      .select((eb) => eb.fn.sum('requests').as('n'))
      .where('family', '=', family)
      .where('month', '>', month)
      .executeTakeFirst()) as { n: unknown } | undefined;
    return Number(row?.n ?? 0);
  }

  /** Requests of `family` from `from` (inclusive) to `before` (exclusive; null = no end). */
  private async sum(family: QuotaFamily, from: string, before: string | null): Promise<number> {
    let q = this.store.db
      .selectFrom('usage_ledger')
      .select((eb) => eb.fn.sum('requests').as('n'))
      .where('family', '=', family)
      .where('day', '>=', from);
    if (before !== null) q = q.where('day', '<', before);
    const row = (await q.executeTakeFirst()) as { n: unknown } | undefined;
    return Number(row?.n ?? 0);
  }
}

/** No quota period is longer than a calendar month: a renewal later than that (or no time at all) is one month after `from`. */
export const LONGEST_HOLD_MS = 31 * 24 * 60 * 60_000;

/** The UTC day after a ledger day. */
function nextDay(day: string): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60_000));
}

function withinReason(until: Date, from: Date): Date {
  const latest = from.getTime() + LONGEST_HOLD_MS;
  return until.getTime() <= latest ? until : new Date(latest);
}

/** Adds `count` to a day's or a month's row while it stays within `limit`; whether it did. */
async function addTo(
  db: Kysely<BudgetTables>,
  family: QuotaFamily,
  row: { day: string } | { month: string },
  count: number,
  limit: number | null,
): Promise<boolean> {
  const [result] =
    'day' in row
      ? await db
          .updateTable('usage_ledger')
          .set((eb) => ({ requests: eb('requests', '+', count) }))
          .where('family', '=', family)
          .where('day', '=', row.day)
          .$if(limit !== null, (q) => q.where('requests', '<=', limit! - count))
          .execute()
      : await db
          .updateTable('usage_months')
          .set((eb) => ({ requests: eb('requests', '+', count) }))
          .where('family', '=', family)
          .where('month', '=', row.month)
          .$if(limit !== null, (q) => q.where('requests', '<=', limit! - count))
          .execute();
  return Number(result?.numUpdatedRows ?? 0n) === 1;
}
