// Saved monitoring views: generated definitions (the first one matches everything), their API
// shape, their predicate, and resolution by UUID or slug-with-id-prefix.
import type { AssetUniverse } from './asset-universe.js';
import type { EventWorld } from './event-world.js';
import { DAY } from './event-world.js';
import { categoryMask, importanceLevel, networkMask, sectorIndices, subcategoryMask, subsectorKeys } from './event-query.js';
import { matchesEvent, type Predicate } from './predicate.js';
import { Kind, Rng, seededUuid, uuidIndex } from './seeded-random.js';
import { CATEGORIES, SUBCATEGORIES, type Importance } from './taxonomy.js';
import { rfc3339 } from './time-format.js';
import type { MonitoringView } from './types.js';
import { NETWORK_COUNT, SECTORS, slugify } from './vocabulary.js';

/** A view as stored: the API fields that do not depend on the current data. */
export type ViewDefinition = Omit<MonitoringView, 'matchCount24h' | 'lastMatchAt'>;

type Filters = Partial<
  Pick<
    ViewDefinition,
    | 'assetIds'
    | 'assetSectors'
    | 'assetSubsectors'
    | 'assetPreTge'
    | 'verified'
    | 'actionable'
    | 'governance'
    | 'assetEcosystemNetworkIds'
    | 'intelCategories'
    | 'intelSubcategories'
    | 'minimumImportance'
  >
>;

function archetype(rng: Rng, u: AssetUniverse): { name: string; type: string; filters: Filters } {
  const popular = Math.min(50, u.size);
  switch (rng.int(7)) {
    case 0: {
      const assets = [...new Set(Array.from({ length: 1 + rng.int(4) }, () => rng.int(popular)))];
      return {
        name: `Watchlist: ${assets.map((a) => u.name(a)).join(', ')}`,
        type: 'assets',
        filters: { assetIds: assets.map((a) => u.id(a)) },
      };
    }
    case 1: {
      const cat = CATEGORIES[rng.int(CATEGORIES.length - 1)];
      const min: Importance = rng.pick(['low', 'medium', 'high']);
      return { name: `${cat.name} (${min} and above)`, type: 'intel', filters: { intelCategories: [cat.slug], minimumImportance: min } };
    }
    case 2: {
      const sector = rng.pick(SECTORS).name;
      return { name: `Verified ${sector} news`, type: 'custom', filters: { assetSectors: [sector], verified: true } };
    }
    case 3: {
      const subs = [...new Set([rng.pick(SUBCATEGORIES).slug, rng.pick(SUBCATEGORIES).slug])];
      return { name: `Topics: ${subs.join(', ')}`, type: 'intel', filters: { intelSubcategories: subs } };
    }
    case 4: {
      const net = rng.int(Math.min(NETWORK_COUNT, u.size));
      return {
        name: `${u.name(net)} ecosystem, actionable`,
        type: 'custom',
        filters: { assetEcosystemNetworkIds: [u.id(net)], actionable: true },
      };
    }
    case 5:
      return { name: 'Governance', type: 'intel', filters: { governance: true } };
    default:
      return { name: 'Pre-TGE projects', type: 'assets', filters: { assetPreTge: true, minimumImportance: 'medium' } };
  }
}

export function generateViews(seed: number, u: AssetUniverse, count: number, anchor: number): ViewDefinition[] {
  return Array.from({ length: count }, (_, i) => {
    const rng = new Rng(seed, Kind.view, i);
    const shape = i === 0 ? { name: 'All developments', type: 'custom', filters: {} } : archetype(rng, u);
    const id = seededUuid(seed, Kind.view, i);
    const f: Filters = shape.filters;
    return {
      id,
      slug: `${id}-${slugify(shape.name)}`,
      name: shape.name,
      configurationType: shape.type,
      teamShared: rng.chance(0.3),
      isOwner: rng.chance(0.8),
      evaluationStartAt: rfc3339(anchor - 400 * DAY - rng.int(30 * DAY)),
      assetIds: f.assetIds ?? [],
      assetSectors: f.assetSectors ?? [],
      assetSubsectors: f.assetSubsectors ?? [],
      assetPreTge: f.assetPreTge ?? null,
      verified: f.verified ?? null,
      actionable: f.actionable ?? null,
      governance: f.governance ?? null,
      assetEcosystemNetworkIds: f.assetEcosystemNetworkIds ?? [],
      intelCategories: f.intelCategories ?? [],
      intelSubcategories: f.intelSubcategories ?? [],
      minimumImportance: f.minimumImportance ?? '',
    };
  });
}

/** An empty array or null field is no restriction. */
export function viewPredicate(u: AssetUniverse, v: ViewDefinition): Predicate {
  const p: Predicate = {
    minImportance: importanceLevel(v.minimumImportance, 'minimumImportance'),
    verified: v.verified ?? undefined,
    actionable: v.actionable ?? undefined,
    governance: v.governance ?? undefined,
    preTge: v.assetPreTge ?? undefined,
  };
  if (v.assetIds.length > 0) p.assets = new Set(v.assetIds.map((t) => u.resolve(t)).filter((a) => a >= 0));
  if (v.assetSectors.length > 0) p.sectors = sectorIndices(v.assetSectors);
  if (v.assetSubsectors.length > 0) p.subsectors = subsectorKeys(v.assetSubsectors);
  if (v.assetEcosystemNetworkIds.length > 0) p.networkMask = networkMask(u, v.assetEcosystemNetworkIds);
  if (v.intelCategories.length > 0) p.categoryMask = categoryMask(v.intelCategories);
  if (v.intelSubcategories.length > 0) p.subcategoryMask = subcategoryMask(v.intelSubcategories);
  return p;
}

/**
 * The API shape with match statistics at `now` (Unix seconds): matchCount24h = matching events
 * updated in the last 24 hours, lastMatchAt = the latest update of a matching event.
 */
export function viewRecord(w: EventWorld, v: ViewDefinition, now: number): MonitoringView {
  const p = viewPredicate(w.assets, v);
  const updated = w.ev.cols.updatedAt;
  let last = 0;
  let recent = 0;
  // Newest update first: stop at the first match older than 24 hours.
  for (const e of w.byUpdateDescending()) {
    if (updated[e] > now || !matchesEvent(w, p, e)) continue;
    if (last === 0) last = updated[e];
    if (updated[e] <= now - DAY) break;
    recent++;
  }
  const { id, slug, name, configurationType, teamShared, isOwner, evaluationStartAt, ...filters } = v;
  return {
    id,
    slug,
    name,
    configurationType,
    teamShared,
    isOwner,
    matchCount24h: recent,
    lastMatchAt: last > 0 ? rfc3339(last) : evaluationStartAt,
    evaluationStartAt,
    ...filters,
  };
}

/** Index of a view given by UUID or exact slug; -1 when unknown. */
export function resolveView(seed: number, views: readonly ViewDefinition[], token: string): number {
  const i = uuidIndex(seed, Kind.view, token.slice(0, 36));
  if (i < 0 || i >= views.length) return -1;
  return token.length === 36 || token.toLowerCase() === views[i].slug ? i : -1;
}
