// What a plan allows, per quota family: requests per minute, per UTC day and per calendar month (UTC).
// Charts live on the /v1 service and take the same key, so they count against /v1's quota; the paths
// that take no key (/v1/market-stats, /health) cannot be counted against a team and have their own.
import type { ApiFamily } from '../client/index.js';

export type QuotaFamily = 'v1' | 'tokenUnlocks' | 'monitoring' | 'open';

export const QUOTA_FAMILIES: readonly QuotaFamily[] = ['v1', 'tokenUnlocks', 'monitoring', 'open'];

/** Each family as a person reads it, in `budget`, `sync --plan` and the lines of a service not reached. */
export const FAMILY_NAMES: Readonly<Record<string, string>> = {
  v1: '/v1 (and charts)',
  tokenUnlocks: 'token unlocks',
  monitoring: 'monitoring',
  open: 'keyless /v1 (market stats)',
};

export interface FamilyQuota {
  perMinute?: number;
  perDay?: number;
  perMonth?: number;
}

export type Quotas = Readonly<Record<QuotaFamily, Readonly<FamilyQuota>>>;

/**
 * The published standard plans: /v1 2,500 requests a month (counted across every key of a team);
 * monitoring and token unlocks about 200 a minute. /v1 publishes no per-minute rate: the client's own
 * pace (limits.v1.requestsPerMinute) applies.
 */
export const STANDARD_PLAN: Quotas = Object.freeze({
  v1: Object.freeze({ perMonth: 2500 }),
  tokenUnlocks: Object.freeze({ perMinute: 200 }),
  monitoring: Object.freeze({ perMinute: 200 }),
  open: Object.freeze({}),
});

export function quotaFamilyOf(family: ApiFamily): QuotaFamily {
  return family === 'charts' ? 'v1' : family;
}

/** YYYY-MM-DD of a time, in UTC: the ledger's day. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first day of the time's calendar month (UTC), as the ledger writes days. */
export function monthStartDay(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/** When a day's or a month's allowance renews: the next UTC midnight, or the first of next month. */
export function renewsAt(period: 'day' | 'month', at: Date): Date {
  if (period === 'day') return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
