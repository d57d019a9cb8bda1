// Market statistics: one row per day (and per hour with group_by=hour) from the first day up to the
// sandbox's now. Rows exist because of the clock, not of Collection state: the row of the day (or
// hour) in progress changes with every advance, a new day adds a row, and past rows are final.
import { Rng, sig } from '../core/prng.js';
import { DAY, isoDate } from '../core/dates.js';
import type { World } from './world.js';

export type Grain = 'day' | 'hour';
const HOUR = 3600;
const HOUR_ID_BASE = 1_000_000_000;

function firstDayStart(w: World): number {
  return (Math.floor(w.startSeconds / DAY) - (w.sizes.marketStatsDays - 1)) * DAY;
}

function step(grain: Grain): number {
  return grain === 'day' ? DAY : HOUR;
}

/** Number of rows at sandbox time `t` (the bucket in progress counts). */
export function statsCount(w: World, grain: Grain, t = w.now): number {
  return Math.floor((t - firstDayStart(w)) / step(grain)) + 1;
}

/** Start (Unix seconds) of row n's bucket. */
export function statsBucketStart(w: World, grain: Grain, n: number): number {
  return firstDayStart(w) + n * step(grain);
}

/** Row index of the first bucket starting at or after `seconds`, clamped to [0, count]. */
export function statsIndexAt(w: World, grain: Grain, seconds: number): number {
  const n = Math.ceil((seconds - firstDayStart(w)) / step(grain));
  return Math.min(Math.max(n, 0), statsCount(w, grain));
}

export function statsId(grain: Grain, n: number): number {
  return grain === 'day' ? n + 1 : HOUR_ID_BASE + n;
}

export function statsRow(w: World, grain: Grain, n: number, t = w.now): Record<string, unknown> {
  const start = statsBucketStart(w, grain, n);
  const len = step(grain);
  const end = start + len - 1;
  const progress = Math.min(1, (t - start + 1) / len); // 1 once the bucket is over: the row is final
  const r = new Rng(w.seed, 'market-stats', grain, n);
  const cap = 2.5e12 * Math.exp(0.3 * Math.sin(n / 40) + 0.02 * r.normal());
  const vol = cap * r.between(0.02, 0.08) * (grain === 'hour' ? 1 / 24 : 1) * progress;
  const row: Record<string, unknown> = {
    id: statsId(grain, n),
    date: isoDate(start),
    timestamp: start,
    total_market_cap_usd: sig(cap),
    total_volume_24h_usd: sig(vol),
    btc_dominance: sig(r.between(40, 60), 5),
    eth_dominance: sig(r.between(10, 20), 5),
    stablecoin_market_cap_usd: r.orNull(0.05, sig(cap * r.between(0.05, 0.1))),
    defi_market_cap_usd: r.orNull(0.05, sig(cap * r.between(0.03, 0.08))),
    active_assets: Math.round(r.between(8000, 12000) * (0.5 + 0.5 * progress)),
    updated_at: Math.min(t, end),
  };
  if (grain === 'hour') row.hour = new Date(start * 1000).getUTCHours();
  return row;
}

/** Day rows that changed between two times: the ones in progress at `from`, and the new ones. */
export function statsChanges(w: World, from: number, to: number): { updated: number[]; added: number[] } {
  if (to <= from) return { updated: [], added: [] };
  const before = statsCount(w, 'day', from);
  const after = statsCount(w, 'day', to);
  const added: number[] = [];
  for (let n = before; n < after; n++) added.push(statsId('day', n));
  const last = before - 1;
  const finalAtFrom = from >= statsBucketStart(w, 'day', last) + DAY - 1;
  return { updated: finalAtFrom ? [] : [statsId('day', last)], added };
}
