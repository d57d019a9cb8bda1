// Configured filters (by the names of the catalog's parameter table) → the query a request sends. A
// user mirroring a slice writes `monitoring.events` / `monitoring.tokenUnlocks`; an unknown name is a
// config error that lists the known ones, so a typo never silently mirrors everything.
import { ConfigError } from '../errors.js';
import type { MonitoringParams } from './query-params.js';
import type { Query } from './types.js';

export type FilterValue = string | boolean | number | readonly string[];

/** Names the run sets itself on /monitoring/v2/events. */
const RUN_OWNED = new Set(['limit', 'page']);

function wireValue(value: FilterValue): string | number | boolean {
  // The spec's list filters are comma-separated (not repeated keys).
  return Array.isArray(value) ? value.join(',') : (value as string | number | boolean);
}

function toQuery(
  what: string,
  names: Readonly<Record<string, string>>,
  filters: Readonly<Record<string, FilterValue>>,
  excluded: ReadonlySet<string> = new Set(),
): Query {
  const query: Query = {};
  for (const [name, value] of Object.entries(filters)) {
    const wire = names[name];
    if (wire === undefined || excluded.has(name)) {
      const known = Object.keys(names)
        .filter((n) => !excluded.has(n))
        .join(', ');
      throw new ConfigError(`${what}: unknown filter "${name}"; known filters: ${known}`);
    }
    if (Array.isArray(value) && value.length === 0) continue;
    query[wire] = wireValue(value);
  }
  return query;
}

/** Filters of /monitoring/v2/events (everything but paging; `start` is a floor under the incremental window). */
export function eventFilters(filters: Readonly<Record<string, FilterValue>>, params: MonitoringParams): Query {
  return toQuery('monitoring.events', params.events, filters, RUN_OWNED);
}

/** Filters of /token-unlocks/v1/assets: assetIds, categories, sectors, tags. */
export function tokenUnlockFilters(filters: Readonly<Record<string, FilterValue>>, params: MonitoringParams): Query {
  return configuredQuery('tokenUnlocks', filters, params);
}

/** The query of a family's configured filters (a list entry's `filters`). */
export function configuredQuery(family: 'tokenUnlocks', filters: Readonly<Record<string, FilterValue>>, params: MonitoringParams): Query {
  return toQuery(`monitoring.${family}`, params[family], filters);
}
