// The quotas of the plan a user pays for: the standard plan's, with the config file's `limits` over it
// (`requestsPerDay`, `requestsPerMonth`; null removes a default, for a plan without that quota). The
// per-minute rate is the family's pace (`requestsPerMinute`): the client's token bucket keeps it.
import type { LimitsOption } from '../client/index.js';
import { defaultLimits } from '../client/family-lanes.js';
import { QUOTA_FAMILIES, STANDARD_PLAN, type FamilyQuota, type QuotaFamily, type Quotas } from './quotas.js';

export interface QuotaLimits {
  requestsPerDay?: number | null;
  requestsPerMonth?: number | null;
}

export type PlanLimits = Partial<Record<QuotaFamily | 'charts', (NonNullable<LimitsOption[keyof LimitsOption]> & QuotaLimits) | undefined>>;

export function planQuotas(limits: PlanLimits = {}): Quotas {
  const quotas = {} as Record<QuotaFamily, FamilyQuota>;
  for (const family of QUOTA_FAMILIES) {
    const own = limits[family];
    const base = STANDARD_PLAN[family];
    const perDay = own?.requestsPerDay === undefined ? base.perDay : (own.requestsPerDay ?? undefined);
    const perMonth = own?.requestsPerMonth === undefined ? base.perMonth : (own.requestsPerMonth ?? undefined);
    const perMinute = own?.requestsPerMinute ?? defaultLimits(family).requestsPerMinute;
    quotas[family] = Object.freeze({
      perMinute,
      ...(perDay === undefined ? {} : { perDay }),
      ...(perMonth === undefined ? {} : { perMonth }),
    });
  }
  return Object.freeze(quotas);
}
