// Charts, their dashboards, and their data rows. Row r of a chart is a pure function of
// (seed, chart, version, r), so a 250,000-row chart costs nothing until a page of it is read.
import { Rng, sig } from '../core/prng.js';
import { DAY, isoDate } from '../core/dates.js';
import { indexedSlug, properName } from '../core/text.js';
import type { World } from './world.js';

const MEASURES = ['Volume', 'Fees', 'Revenue', 'Active Users', 'TVL', 'Open Interest', 'Transactions', 'Holders'];
const DIMENSIONS = ['Exchange', 'Chain', 'Sector', 'Protocol', 'Day', 'Asset', 'Region', 'Wallet Cohort'];
const ROW_KINDS = ['timeseries', 'table', 'nested'] as const;
const CATEGORIES = ['spot', 'derivatives', 'lending', 'staking', 'payments', 'gaming'];

export function dashboardCount(w: World): number {
  return Math.max(5, Math.round(w.charts.baseCount / 4));
}

export function dashboardTitle(w: World, d: number): string {
  return `${properName(new Rng(w.seed, 'dashboard', d))} Dashboard`;
}

export function dashboardSlug(w: World, d: number): string {
  return indexedSlug(dashboardTitle(w, d), d);
}

export function chartTitle(w: World, c: number): string | null {
  const rng = new Rng(w.seed, 'chart', c);
  return rng.orNull(0.05, `${rng.pick(MEASURES)} by ${rng.pick(DIMENSIONS)}`);
}

/** The slug of a chart within a dashboard path (`/v1/charts/{dashboard}/{slug}/data`). */
export function chartSlug(w: World, c: number): string {
  return indexedSlug(chartTitle(w, c) ?? 'chart', c);
}

/** Dashboards showing a chart; an update may move it onto another dashboard. */
export function chartDashboards(w: World, c: number): number[] {
  const v = w.charts.version(c);
  const rng = new Rng(w.seed, 'chart-dashboards', c);
  const n = dashboardCount(w);
  const out = new Set<number>([rng.int(n)]);
  if (rng.chance(0.4)) out.add(rng.int(n));
  if (v > 0) {
    // The v-th dashboard outside the chart's own ones: every version shows a different set.
    const others = Array.from({ length: n }, (_, d) => d).filter((d) => !out.has(d));
    out.add(others[(v - 1) % others.length]);
  }
  return [...out].sort((a, b) => a - b);
}

export function chartJson(w: World, c: number): Record<string, unknown> {
  return {
    id: w.ids.charts.idOf(c),
    title: chartTitle(w, c),
    dashboards: chartDashboards(w, c).map((d) => dashboardTitle(w, d)),
  };
}

/** A few generated charts (one in 16) are big: over 100,000 rows. Updates append rows. */
export function chartRowCount(w: World, c: number): number {
  const rng = new Rng(w.seed, 'chart-rows', c);
  const base = c % 16 === 5 ? 100_001 + rng.int(150_000) : Math.floor(Math.exp(rng.between(Math.log(5), Math.log(5000))));
  return base + 10 * w.charts.version(c);
}

export function chartRow(w: World, c: number, r: number): Record<string, unknown> {
  const kind = ROW_KINDS[new Rng(w.seed, 'chart-kind', c).int(ROW_KINDS.length)];
  const rng = new Rng(w.seed, 'chart-row', c, w.charts.version(c), r);
  switch (kind) {
    case 'timeseries':
      return {
        timestamp: new Date((w.startSeconds - (r + 1) * 3600) * 1000).toISOString(),
        series: rng.pick(CATEGORIES),
        value: sig(Math.exp(rng.between(0, 20)), 6),
      };
    case 'table':
      return {
        rank: r + 1,
        name: properName(rng),
        category: rng.pick(CATEGORIES),
        value: sig(rng.between(0, 1e9), 6),
        change_pct: rng.orNull(0.1, sig(rng.normal() * 10, 4)),
      };
    case 'nested':
      return {
        id: r,
        date: isoDate(w.startSeconds - (r % 3650) * DAY),
        label: `${properName(rng)} ${rng.pick(CATEGORIES)}`,
        metrics: { users: rng.int(1_000_000), volume_usd: sig(rng.between(0, 1e8), 6) },
        tags: [rng.pick(CATEGORIES), rng.pick(CATEGORIES)],
      };
  }
}
