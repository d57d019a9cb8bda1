// Counts requests per family in the current minute, day and month of the sandbox clock, and decides
// whether the next one fits the limits. Counting goes on with or without limits, so limits set at
// run time see what was already used in their window, as a real service's would.
import { PERIODS, QUOTA_FAMILIES, formatQuota, validateQuota, type Period, type QuotaFamily, type QuotaLimit } from './quota-spec.js';
import { windowOf } from './quota-window.js';

/** One limit's state in its current window. */
export interface WindowStatus {
  period: Period;
  limit: number;
  used: number;
  remaining: number;
  /** Unix seconds (sandbox clock) when the allowance renews. */
  resetsAt: number;
}

export type Decision = { admitted: true } | { admitted: false; spent: WindowStatus };

export interface FamilyReport {
  limits: Array<Omit<WindowStatus, 'resetsAt'> & { resetsAt: string }>;
  /** Requests counted in the current minute, day and month. */
  used: Record<Period, number>;
  /** Requests counted since start (or the last clear). */
  requests: number;
  /** Requests answered 429 because a limit was spent (never counted as used). */
  refused: number;
  /** True if a request was ever served beyond a limit: must never happen. */
  exceeded: boolean;
}

export interface QuotaReport {
  now: string;
  /** The limits in spec form (`v1=2500/month`), or null when none is set. */
  quota: string | null;
  refused: number;
  exceeded: boolean;
  families: Record<QuotaFamily, FamilyReport>;
}

interface Usage {
  windows: Record<Period, { start: number; count: number }>;
  requests: number;
  refused: number;
  exceeded: boolean;
}

function emptyUsage(): Usage {
  const windows = Object.fromEntries(PERIODS.map((p) => [p, { start: -Infinity, count: 0 }])) as Usage['windows'];
  return { windows, requests: 0, refused: 0, exceeded: false };
}

export class QuotaMeter {
  private limits: QuotaLimit[] = [];
  private usage = new Map<QuotaFamily, Usage>();

  /**
   * `now`: the sandbox clock in Unix seconds (days and months). A gateway counts its minutes on wall time
   * (`wallNow`), so a per-minute allowance renews by itself however the sandbox's clock moves.
   */
  constructor(
    private readonly now: () => number,
    limits: readonly QuotaLimit[] | null = null,
    private readonly wallNow: () => number = () => Date.now() / 1000,
  ) {
    this.set(limits);
    this.clearCounts();
  }

  /** Replaces the limits (null: none); counts are kept. */
  set(limits: readonly QuotaLimit[] | null): void {
    this.limits = limits ? validateQuota(limits) : [];
  }

  /** Removes every limit and zeroes every count. */
  clear(): void {
    this.limits = [];
    this.clearCounts();
  }

  current(): QuotaLimit[] {
    return [...this.limits];
  }

  /** Whether one more request of `family` fits every limit now; a refusal is counted as refused. */
  admit(family: QuotaFamily): Decision {
    const spent = this.statuses(family).filter((s) => s.remaining <= 0);
    if (spent.length === 0) return { admitted: true };
    this.usage.get(family)!.refused++;
    // The request can go through only once every spent window has renewed: name the last one.
    return { admitted: false, spent: spent.reduce((a, b) => (b.resetsAt > a.resetsAt ? b : a)) };
  }

  /** Counts a request the service handled; returns the tightest limit after it (null: no limit). */
  record(family: QuotaFamily): WindowStatus | null {
    const u = this.usage.get(family)!;
    for (const p of PERIODS) {
      const w = u.windows[p];
      const start = windowOf(p, this.at(p)).start;
      if (w.start !== start) u.windows[p] = { start, count: 0 };
      u.windows[p].count++;
    }
    u.requests++;
    const statuses = this.statuses(family);
    if (statuses.some((s) => s.remaining < 0)) u.exceeded = true;
    if (statuses.length === 0) return null;
    return statuses.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetsAt > a.resetsAt) ? b : a));
  }

  report(): QuotaReport {
    const families = Object.fromEntries(
      QUOTA_FAMILIES.map((f) => {
        const u = this.usage.get(f)!;
        const limits = this.statuses(f).map((s) => ({ ...s, resetsAt: new Date(s.resetsAt * 1000).toISOString() }));
        const used = Object.fromEntries(PERIODS.map((p) => [p, this.used(f, p)])) as Record<Period, number>;
        return [f, { limits, used, requests: u.requests, refused: u.refused, exceeded: u.exceeded }];
      }),
    ) as Record<QuotaFamily, FamilyReport>;
    const all = Object.values(families);
    return {
      now: new Date(this.now() * 1000).toISOString(),
      quota: this.limits.length ? formatQuota(this.limits) : null,
      refused: all.reduce((n, f) => n + f.refused, 0),
      exceeded: all.some((f) => f.exceeded),
      families,
    };
  }

  private statuses(family: QuotaFamily): WindowStatus[] {
    return this.limits
      .filter((l) => l.family === family)
      .map((l) => {
        const used = this.used(family, l.period);
        const resetsAt = windowOf(l.period, this.at(l.period)).end;
        return { period: l.period, limit: l.limit, used, remaining: l.limit - used, resetsAt };
      });
  }

  /** The clock a period counts on: wall time for minutes, the sandbox's for days and months. */
  at(period: Period): number {
    return period === 'minute' ? this.wallNow() : this.now();
  }

  /** Requests of `family` in the current window of `period` (0 once the window has renewed). */
  private used(family: QuotaFamily, period: Period): number {
    const w = this.usage.get(family)!.windows[period];
    return w.start === windowOf(period, this.at(period)).start ? w.count : 0;
  }

  private clearCounts(): void {
    this.usage = new Map(QUOTA_FAMILIES.map((f) => [f, emptyUsage()]));
  }
}
