// One lane per API family: its pace and its concurrency limit. Charts and the open paths
// live on the /v1 service, so they share its lane (and budget) unless configured on their own.
import pLimit, { type LimitFunction } from 'p-limit';
import { ConfigError } from '../errors.js';
import type { ApiFamily } from './api-family.js';
import { MinutePacer } from './minute-pacer.js';

export interface FamilyLimits {
  requestsPerMinute: number;
  concurrency: number;
}

export type LimitsOption = Partial<Record<ApiFamily, Partial<FamilyLimits>>>;

export interface Lane {
  readonly limits: Readonly<FamilyLimits>;
  readonly pacer: MinutePacer;
  readonly limit: LimitFunction;
}

const DEFAULTS: Record<'v1' | 'tokenUnlocks' | 'monitoring', FamilyLimits> = {
  v1: { requestsPerMinute: 600, concurrency: 8 },
  tokenUnlocks: { requestsPerMinute: 200, concurrency: 4 },
  monitoring: { requestsPerMinute: 200, concurrency: 4 },
};

/** The pace a family gets when the config file sets none (charts and the keyless paths share /v1's). */
export function defaultLimits(family: ApiFamily): FamilyLimits {
  return family === 'tokenUnlocks' || family === 'monitoring' ? DEFAULTS[family] : DEFAULTS.v1;
}

function validated(family: ApiFamily, l: FamilyLimits): FamilyLimits {
  if (!(l.requestsPerMinute > 0)) throw new ConfigError(`limits.${family}.requestsPerMinute must be above 0 (got ${l.requestsPerMinute})`);
  if (!Number.isInteger(l.concurrency) || l.concurrency < 1) {
    throw new ConfigError(`limits.${family}.concurrency must be an integer of at least 1 (got ${l.concurrency})`);
  }
  return Object.freeze({ ...l });
}

function lane(limits: FamilyLimits): Lane {
  return { limits, pacer: new MinutePacer(limits.requestsPerMinute), limit: pLimit(limits.concurrency) };
}

export function buildLanes(option: LimitsOption = {}): Record<ApiFamily, Lane> {
  const own = (family: ApiFamily, base: FamilyLimits): Lane => lane(validated(family, { ...base, ...option[family] }));
  const v1 = own('v1', DEFAULTS.v1);
  return {
    v1,
    charts: option.charts ? own('charts', v1.limits) : v1,
    open: option.open ? own('open', v1.limits) : v1,
    tokenUnlocks: own('tokenUnlocks', DEFAULTS.tokenUnlocks),
    monitoring: own('monitoring', DEFAULTS.monitoring),
  };
}

/** Pool connections: enough for every lane's workers at once. */
export function totalConcurrency(lanes: Record<ApiFamily, Lane>): number {
  return [...new Set(Object.values(lanes))].reduce((sum, l) => sum + l.limits.concurrency, 0);
}
