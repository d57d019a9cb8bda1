// The query parameter names the API contract leaves "not shown", in one place (docs/design-choices.md).
import { ConfigError } from '../errors.js';

/**
 * Query parameter names (docs/design-choices.md), keyed by the names a user writes in configuration
 * (`monitoring.events`, `monitoring.tokenUnlocks`). The sandbox keeps its own copy of the same table.
 * A deployment whose service spells one differently overrides it in `monitoring.queryParams`.
 */
export const MONITORING_PARAMS = Object.freeze({
  /** `/monitoring/v2/events`: the 15 filters in the spec's order, then paging. */
  events: Object.freeze({
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
  }),
  /** `/monitoring/v2/monitoring-views/{id}/events`: only paging and search apply. */
  viewEvents: Object.freeze({ search: 'search', limit: 'limit', page: 'page' }),
  /** `/token-unlocks/v1/assets`: filters are comma-separated; paging is accepted and ignored (so never sent). */
  tokenUnlocks: Object.freeze({ assetIds: 'assetIDs', categories: 'category', sectors: 'sectors', tags: 'tags' }),
});

/** The table's shape, with every name overridable. */
export type MonitoringParams = {
  readonly [F in keyof typeof MONITORING_PARAMS]: Readonly<Record<keyof (typeof MONITORING_PARAMS)[F], string>>;
};

/** The defaults with a configuration's overrides (`{events: {minimumImportance: 'importance'}}`). */
export function monitoringParams(
  overrides: { readonly [F in keyof MonitoringParams]?: Readonly<Record<string, string>> } = {},
): MonitoringParams {
  const merged = {} as Record<string, Record<string, string>>;
  for (const [family, names] of Object.entries(MONITORING_PARAMS)) {
    const given = (overrides as Record<string, Record<string, string> | undefined>)[family] ?? {};
    for (const key of Object.keys(given)) {
      if (!(key in names))
        throw new ConfigError(`monitoring.queryParams.${family}: unknown name "${key}"; known: ${Object.keys(names).join(', ')}`);
    }
    merged[family] = { ...names, ...given };
  }
  return merged as unknown as MonitoringParams;
}
