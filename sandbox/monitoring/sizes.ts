// How much data a sandbox holds: a base per profile, times `scale` (linear).
import type { Profile } from './types.js';

export interface Sizes {
  tokenUnlocks: number;
  events: number;
  assets: number;
  views: number;
}

const BASE: Record<Profile, Sizes> = {
  // The scale-1 sizes.
  default: { tokenUnlocks: 300, events: 2000, assets: 1000, views: 10 },
  // Near the real services: token unlocks cover a few hundred assets, monitoring 1,000+ assets.
  real: { tokenUnlocks: 450, events: 20000, assets: 1500, views: 25 },
};

export function sizesFor(profile: Profile, scale: number): Sizes {
  if (!(scale > 0)) throw new RangeError(`scale must be a positive number, got ${scale}`);
  const base = BASE[profile];
  const times = (n: number): number => Math.max(1, Math.round(n * scale));
  return {
    tokenUnlocks: times(base.tokenUnlocks),
    events: times(base.events),
    // Never fewer assets than the well-known set or than token-unlock coverage needs.
    assets: Math.max(20, times(base.assets), times(base.tokenUnlocks) * 2),
    views: times(base.views),
  };
}
