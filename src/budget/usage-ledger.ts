// The usage ledger in the store: requests are reserved in small blocks before they are sent and the
// unused rest of a block is given back, so the ledger never lets several workers together pass a
// quota, costs one write per block rather than per request, and ends each run equal to what was sent.
// A worker that dies holding blocks over-counts by at most a block and a half (quota-gate.ts): the safe side.
import type { Store } from '../store/types.js';
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
    await this.store.db
      .insertInto('usage_ledger')
      .values({ family, day, requests: 0 })
      .onConflict((oc) => oc.columns(['family', 'day']).doNothing())
      .execute();
    // Earlier days of the month no longer grow, so the one row of today decides: a conditional update
    // of that row is atomic on both stores, and PostgreSQL re-checks it after waiting on a concurrent one.
    const earlier = quota.perMonth === undefined ? 0 : await this.sum(family, monthStartDay(at), day);
    for (let tries = 0; tries < 20; tries++) {
      const today = await this.requestsOn(family, day);
      const room = Math.min(
        quota.perDay === undefined ? Infinity : quota.perDay - today,
        quota.perMonth === undefined ? Infinity : quota.perMonth - earlier - today,
      );
      if (room <= 0) {
        const byDay = quota.perDay !== undefined && quota.perDay - today <= 0;
        return byDay
          ? { granted: 0, spent: 'day', limit: quota.perDay!, used: today }
          : { granted: 0, spent: 'month', limit: quota.perMonth!, used: earlier + today };
      }
      const grant = Math.min(want, room);
      let update = this.store.db
        .updateTable('usage_ledger')
        .set((eb) => ({ requests: eb('requests', '+', grant) }))
        .where('family', '=', family)
        .where('day', '=', day);
      if (quota.perDay !== undefined) update = update.where('requests', '<=', quota.perDay - grant);
      if (quota.perMonth !== undefined) update = update.where('requests', '<=', quota.perMonth - earlier - grant);
      const [result] = await update.execute();
      if (Number(result?.numUpdatedRows ?? 0n) === 1) return { granted: grant };
      // Another worker took some meanwhile: read again and retry with what is left.
    }
    return { granted: 0, spent: quota.perDay !== undefined ? 'day' : 'month', limit: quota.perDay ?? quota.perMonth ?? 0, used: NaN };
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
    await this.store.db
      .updateTable('usage_ledger')
      .set((eb) => ({ requests: eb('requests', '-', count) }))
      .where('family', '=', family)
      .where('day', '=', day)
      .execute();
  }

  /** Requests counted today and this calendar month (UTC), every worker's together. */
  async usage(family: QuotaFamily, at: Date): Promise<Usage> {
    const day = utcDay(at);
    return { today: await this.requestsOn(family, day), month: await this.sum(family, monthStartDay(at), utcDay(renewsAt('month', at))) };
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
   * The service's own "allowance spent" for a family, while it lasts; a hold stored beyond a month from
   * when it was set (an absurd header an older release believed) lasts a month from then.
   */
  async holdOf(family: QuotaFamily, at: Date): Promise<QuotaHold | null> {
    const row = await this.store.db
      .selectFrom('quota_holds')
      .select(['until', 'reason', 'set_at'])
      .where('family', '=', family)
      .executeTakeFirst();
    if (!row) return null;
    const setAt = new Date(String(row.set_at));
    const until = withinReason(new Date(String(row.until)), Number.isNaN(setAt.getTime()) ? at : setAt);
    return until.getTime() > at.getTime() ? { family, until, reason: String(row.reason) } : null;
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
    return (await this.store.adapter.paceSlot?.(family, intervalMs)) ?? 0;
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

function withinReason(until: Date, from: Date): Date {
  const latest = from.getTime() + LONGEST_HOLD_MS;
  return until.getTime() <= latest ? until : new Date(latest);
}
