// What a quota is: a family of paths, a number of requests and a calendar period, parsed from
// `v1=2500/month,v1=100/day,monitoring=200/min` or given as objects (checked the same way).

/** `v1`: /v1 paths that take a key; `open`: /v1 paths that take none (market stats). */
export const QUOTA_FAMILIES = ['v1', 'monitoring', 'tokenUnlocks', 'open'] as const;
export type QuotaFamily = (typeof QUOTA_FAMILIES)[number];

export const PERIODS = ['minute', 'day', 'month'] as const;
export type Period = (typeof PERIODS)[number];

export interface QuotaLimit {
  family: QuotaFamily;
  /** Requests allowed per period (0 refuses every request). */
  limit: number;
  period: Period;
}

const FAMILY_NAMES: Record<string, QuotaFamily> = {
  v1: 'v1',
  monitoring: 'monitoring',
  tokenUnlocks: 'tokenUnlocks',
  'token-unlocks': 'tokenUnlocks',
  open: 'open',
};
const PERIOD_NAMES: Record<string, Period> = { min: 'minute', minute: 'minute', day: 'day', month: 'month' };
const USAGE = 'use <family>=<requests>/<period> (family v1|monitoring|tokenUnlocks|open, period min|day|month), e.g. v1=2500/month';

/** Parses `v1=2500/month,monitoring=200/min`; throws a one-line Error naming the bad part. */
export function parseQuota(spec: string): QuotaLimit[] {
  const limits: QuotaLimit[] = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9-]+)\s*=\s*(\d+)\s*\/\s*([a-z]+)$/.exec(part);
    const family = m ? FAMILY_NAMES[m[1]] : undefined;
    const period = m ? PERIOD_NAMES[m[3]] : undefined;
    if (!m || !family || !period) throw new Error(`bad quota "${part}": ${USAGE}`);
    limits.push({ family, limit: Number(m[2]), period });
  }
  return validateQuota(limits);
}

/** Checks limits given as objects (control API, startSandbox); returns frozen copies. */
export function validateQuota(limits: readonly QuotaLimit[]): QuotaLimit[] {
  if (!Array.isArray(limits)) throw new Error(`quota must be a list of {family, limit, period} or a string: ${USAGE}`);
  const seen = new Set<string>();
  return limits.map((l) => {
    if (!QUOTA_FAMILIES.includes(l?.family) || !PERIODS.includes(l?.period) || !Number.isSafeInteger(l?.limit) || l.limit < 0) {
      throw new Error(`bad quota ${JSON.stringify(l)}: ${USAGE}`);
    }
    const key = `${l.family}/${l.period}`;
    if (seen.has(key)) throw new Error(`quota for ${l.family} per ${l.period} given twice: give one limit per family and period`);
    seen.add(key);
    return Object.freeze({ family: l.family, limit: l.limit, period: l.period });
  });
}

/** `v1=2500/month,monitoring=200/min`: the spec form, for printing. */
export function formatQuota(limits: readonly QuotaLimit[]): string {
  return limits.map((l) => `${l.family}=${l.limit}/${l.period === 'minute' ? 'min' : l.period}`).join(',');
}
