// The sandbox's copy of the query parameter names (listed in sandbox/README.md). The spec leaves the
// names "not shown"; this is the one place they live on the sandbox side.
export const QUERY_PARAMS = {
  /** `/monitoring/v2/events`, filters in the spec's order, then paging. */
  events: {
    assetIds: 'assetIds',
    eventIds: 'eventIds',
    intelCategories: 'intelCategories',
    intelSubcategories: 'intelSubcategories',
    minimumImportance: 'minimumImportance',
    verified: 'verified',
    actionable: 'actionable',
    governance: 'governance',
    assetSectors: 'assetSectors',
    assetSubsectors: 'assetSubsectors',
    assetPreTge: 'assetPreTge',
    assetEcosystemNetworkIds: 'assetEcosystemNetworkIds',
    start: 'start',
    end: 'end',
    search: 'search',
    limit: 'limit',
    page: 'page',
  },
  /** `/monitoring/v2/monitoring-views/{id}/events`. */
  viewEvents: { search: 'search', limit: 'limit', page: 'page' },
  /** `/token-unlocks/v1/assets`; paging is accepted and ignored. */
  tokenUnlocks: { assetIds: 'assetIDs', category: 'category', sectors: 'sectors', tags: 'tags', page: 'page', limit: 'limit' },
} as const;

/** Values of a list parameter: comma-separated, repeated keys, or both. */
export function listParam(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
