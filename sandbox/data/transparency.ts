// Transparency ratings: one per rated asset (generated ones rate distinct project tokens).
import { Rng, sig } from '../core/prng.js';
import { paragraph } from '../core/text.js';
import { assetIdentity } from './assets.js';
import type { World } from './world.js';

const CATEGORIES = ['project_team', 'token_allocation', 'market_structure', 'financial_disclosure'] as const;
const MAX = 25;

export function ratingAssetIndex(w: World, k: number): number {
  const projects = w.projects.baseCount;
  const n = w.transparency.baseCount;
  if (k < n) return Math.floor((k * projects) / n);
  return new Rng(w.seed, 'rating-asset', k).int(projects);
}

export function ratingScores(w: World, k: number): Record<(typeof CATEGORIES)[number], number> {
  const r = new Rng(w.seed, 'rating-v', k, w.transparency.version(k));
  const out = {} as Record<(typeof CATEGORIES)[number], number>;
  for (const c of CATEGORIES) out[c] = sig(r.between(0, MAX), 3);
  return out;
}

export function ratingTotal(w: World, k: number): number {
  const s = ratingScores(w, k);
  return s.project_team + s.token_allocation + s.market_structure + s.financial_disclosure;
}

export function ratingJson(w: World, k: number): Record<string, unknown> {
  const coll = w.transparency;
  const rng = new Rng(w.seed, 'rating', k);
  const vr = new Rng(w.seed, 'rating-text', k, coll.version(k));
  const a = assetIdentity(w, ratingAssetIndex(w, k));
  const times = w.baseTimes(rng);
  const scores = ratingScores(w, k);
  const id = w.ids.transparency.idOf(k);
  return {
    id,
    asset_id: a.id,
    summary: vr.orNull(0.1, paragraph(vr, 2)),
    created_at: coll.bornAt(k) ?? times.created,
    updated_at: coll.changedAt(k) || times.updated,
    asset_code: a.code,
    asset_title: a.title,
    asset_slug: a.slug,
    asset_image_url: a.imageUrl ?? `https://img.sandbox.invalid/assets/${a.index}-placeholder.png`,
    project_team: { rating: scores.project_team, max: MAX },
    token_allocation: { rating: scores.token_allocation, max: MAX },
    market_structure: { rating: scores.market_structure, max: MAX },
    financial_disclosure: { rating: scores.financial_disclosure, max: MAX },
    download_url: rng.orNull(0.1, `https://files.sandbox.invalid/transparency/${id}.pdf`),
  };
}

/** The newest live rating of each rated asset, built once per epoch. */
export function ratingByAsset(w: World): Map<number, number> {
  return w.memo('rating-by-asset', () => {
    const out = new Map<number, number>();
    for (const k of w.transparency.live()) out.set(ratingAssetIndex(w, k), k);
    return out;
  });
}
