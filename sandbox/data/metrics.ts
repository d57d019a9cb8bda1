// Metrics catalogue (fields not shown by the spec) and the daily series of a metric for a project.
import { Rng, sig } from '../core/prng.js';
import { DAY, dayNumber, isoDate } from '../core/dates.js';
import { indexedSlug, properName, sentence } from '../core/text.js';
import type { World } from './world.js';

const TITLES = [
  'Active Addresses',
  'Transaction Count',
  'Transaction Volume',
  'Fees Paid',
  'Revenue',
  'Total Value Locked',
  'Developer Commits',
  'New Addresses',
  'Exchange Inflows',
  'Exchange Outflows',
  'Staked Supply',
  'Validator Count',
  'Realized Cap',
  'Open Interest',
  'Funding Rate',
  'Stablecoin Supply',
];
const DATA_TYPES = ['number', 'usd', 'percentage'] as const;
const SERIES_DAYS = 365;

export function metricTitle(w: World, m: number): string {
  if (m < TITLES.length) return TITLES[m];
  const rng = new Rng(w.seed, 'metric-title', m);
  return `${properName(rng)} ${rng.pick(['Score', 'Volume', 'Count', 'Ratio', 'Index'])}`;
}

export function metricIdentifier(w: World, m: number): string {
  return indexedSlug(metricTitle(w, m), m);
}

export function metricJson(w: World, m: number): Record<string, unknown> {
  const rng = new Rng(w.seed, 'metric', m);
  const vr = new Rng(w.seed, 'metric-v', m, w.metrics.version(m));
  const dataType = rng.pick(DATA_TYPES);
  return {
    id: w.ids.metrics.idOf(m),
    identifier: metricIdentifier(w, m),
    title: metricTitle(w, m),
    description: vr.orNull(0.1, sentence(vr)),
    data_type: dataType,
    unit: dataType === 'usd' ? 'USD' : dataType === 'percentage' ? '%' : null,
    frequency: 'daily',
    history_days: SERIES_DAYS,
    updated_at: w.metrics.changedAt(m) || w.baseTimes(rng).updated,
  };
}

/** Whether a metric has data for a project (about three in four pairs). */
export function metricCovers(w: World, m: number, j: number): boolean {
  return new Rng(w.seed, 'metric-cover', m, j).int(4) !== 0;
}

/** The last 365 days up to the sandbox's today, one `{date, value}` per day. */
export function metricSeries(w: World, m: number, j: number): { date: string; value: number }[] {
  const today = dayNumber(w.now);
  const level = Math.exp(new Rng(w.seed, 'metric-level', m, j).between(2, 18));
  const out: { date: string; value: number }[] = [];
  for (let d = today - SERIES_DAYS + 1; d <= today; d++) {
    const r = new Rng(w.seed, 'metric-point', m, j, d);
    out.push({ date: isoDate(d * DAY), value: sig(level * Math.exp(0.2 * r.normal()), 6) });
  }
  return out;
}
