// A quota is spent: nothing more of that family is sent until it renews. Not a failure: the run stops
// at its checkpoint (exit 3) and the next run after the renewal resumes there.
import { StopError } from '../errors.js';
import type { QuotaFamily } from './quotas.js';
import { count, counted } from '../figures.js';

const FAMILY_NAMES: Record<QuotaFamily, string> = {
  v1: '/v1',
  tokenUnlocks: 'token-unlocks',
  monitoring: 'monitoring',
  open: 'keyless /v1',
};

export interface QuotaFacts {
  family: QuotaFamily;
  /** 'announced': the service itself said so (a 429 with the allowance spent). */
  period: 'day' | 'month' | 'announced';
  limit: number | null;
  used: number | null;
  renewsAt: Date;
  /** The service's words, for an announced quota. */
  reason?: string;
}

export class QuotaError extends StopError implements QuotaFacts {
  readonly family: QuotaFamily;
  readonly period: QuotaFacts['period'];
  readonly limit: number | null;
  readonly used: number | null;
  readonly renewsAt: Date;
  readonly reason?: string;

  constructor(f: QuotaFacts) {
    super('DS_QUOTA', quotaMessage(f));
    this.family = f.family;
    this.period = f.period;
    this.limit = f.limit;
    this.used = f.used;
    this.renewsAt = f.renewsAt;
    this.reason = f.reason;
  }
}

const when = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** One line: which quota, how much of it, and when it renews. */
export function quotaMessage(f: QuotaFacts): string {
  const name = FAMILY_NAMES[f.family];
  if (f.period === 'announced') {
    return `the service says the ${name} allowance is spent${f.reason ? ` (${f.reason})` : ''}; nothing more is sent until ${when(f.renewsAt)}`;
  }
  const used = f.used !== null && Number.isFinite(f.used) ? `${count(f.used)} of ` : '';
  return `the ${name} ${f.period === 'day' ? 'daily' : 'monthly'} quota is spent (${used}${counted(f.limit ?? 0, 'request')}); it renews ${when(f.renewsAt)}`;
}
