// A monitoring view's own predicates evaluated against one development of an event the view matched:
// the rule that decides whether the service alerted the view for that development. Pure: a view record
// and a development summary (with its event's assets) in, a verdict out. A predicate the mirrored data
// cannot test (an asset's sector, network or pre-TGE state are not in an AssetRef; a field missing from
// the development) never rejects: the service listed the event as matching, and the predicate is named
// as unchecked so an analyst knows what the alert rests on.

/** Importance levels, lowest first (the spec's order). */
const IMPORTANCE = ['not-important', 'low', 'medium', 'high'];

/** The view fields that restrict a match, in the order an unchecked list names them. */
export const VIEW_PREDICATES = [
  'evaluationStartAt',
  'minimumImportance',
  'intelCategories',
  'intelSubcategories',
  'verified',
  'actionable',
  'governance',
  'assetIds',
  'assetSectors',
  'assetSubsectors',
  'assetPreTge',
  'assetEcosystemNetworkIds',
] as const;

export type ViewPredicateName = (typeof VIEW_PREDICATES)[number];

/** Predicates about the event's assets that an AssetRef does not describe. */
const ASSET_ONLY: readonly ViewPredicateName[] = ['assetSectors', 'assetSubsectors', 'assetPreTge', 'assetEcosystemNetworkIds'];

export interface DevelopmentVerdict {
  /** False only when a predicate that could be checked failed. */
  matches: boolean;
  /** Predicates the view sets that the data at hand could not test, in VIEW_PREDICATES order. */
  unchecked: ViewPredicateName[];
}

type Check = 'pass' | 'fail' | 'unchecked' | 'unset';
type Json = Record<string, unknown>;

/** Whether the view restricts by this field: an empty array, null, '' or an absent field do not. */
export function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

function time(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

function strings(value: unknown): string[] | null {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()) : null;
}

function anyOf(want: unknown, have: unknown): Check {
  const wanted = strings(want);
  const held = strings(have);
  if (wanted === null || held === null) return 'unchecked';
  return held.some((h) => wanted.includes(h)) ? 'pass' : 'fail';
}

function checkOne(name: ViewPredicateName, want: unknown, dev: Json, assets: readonly Json[] | null): Check {
  switch (name) {
    case 'evaluationStartAt': {
      const from = time(want);
      const started = time(dev.startedAt);
      if (from === null || started === null) return 'unchecked';
      return started >= from ? 'pass' : 'fail';
    }
    case 'minimumImportance': {
      const min = IMPORTANCE.indexOf(String(want).toLowerCase());
      const level = IMPORTANCE.indexOf(String(dev.importance ?? '').toLowerCase());
      if (min < 0 || level < 0) return 'unchecked';
      return level >= min ? 'pass' : 'fail';
    }
    case 'intelCategories':
    case 'intelSubcategories':
      return anyOf(want, dev[name]);
    case 'verified':
    case 'actionable':
    case 'governance':
      if (typeof want !== 'boolean' || typeof dev[name] !== 'boolean') return 'unchecked';
      return dev[name] === want ? 'pass' : 'fail';
    case 'assetIds':
      // A view may name an asset by UUID or slug; an AssetRef carries both.
      if (assets === null) return 'unchecked';
      return anyOf(
        want,
        assets.flatMap((a) => [a.id, a.slug]),
      );
    default:
      return ASSET_ONLY.includes(name) ? 'unchecked' : 'unset';
  }
}

/**
 * Whether the view alerts for this development. `view`: the MonitoringView record; `development`: a
 * DevelopmentSummary (or detail); `eventAssets`: the AssetRefs of its event, null when unknown.
 */
export function evaluateDevelopment(view: Json, development: Json, eventAssets: readonly Json[] | null): DevelopmentVerdict {
  const unchecked: ViewPredicateName[] = [];
  let matches = true;
  for (const name of VIEW_PREDICATES) {
    if (!isSet(view[name])) continue;
    const check = checkOne(name, view[name], development, eventAssets);
    if (check === 'fail') matches = false;
    else if (check === 'unchecked') unchecked.push(name);
  }
  return { matches, unchecked };
}
