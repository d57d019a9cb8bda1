// The monitoring parameter names live in one table that configuration can override (DESIGN.md).
import { describe, expect, it } from 'vitest';
import { MONITORING_PARAMS, monitoringParams } from '../../src/catalog/query-params.js';
import { ConfigError } from '../../src/errors.js';
import { eventFilters, tokenUnlockFilters } from '../../src/catalog/configured-filters.js';
import { syncSettings } from '../../src/sync/settings.js';

describe('monitoring query parameter names', () => {
  it('default to the catalog table', () => {
    expect(syncSettings({}).monitoring.params).toEqual(MONITORING_PARAMS);
    expect(eventFilters({ minimumImportance: 'high', assetIds: ['a', 'b'] }, monitoringParams())).toEqual({
      minimumImportance: 'high',
      assetIds: 'a,b',
    });
  });

  it('take overrides from configuration, name by name', () => {
    const params = syncSettings({
      monitoring: { queryParams: { events: { minimumImportance: 'importance_min' }, tokenUnlocks: { assetIds: 'asset_ids' } } },
    }).monitoring.params;
    expect(eventFilters({ minimumImportance: 'high', search: 'etf' }, params)).toEqual({ importance_min: 'high', search: 'etf' });
    expect(tokenUnlockFilters({ assetIds: ['x'] }, params)).toEqual({ asset_ids: 'x' });
    expect(params.viewEvents).toEqual(MONITORING_PARAMS.viewEvents);
  });

  it('refuse an override of a name the table does not have', () => {
    expect(() => monitoringParams({ events: { minimumImportanceTypo: 'x' } })).toThrow(ConfigError);
    expect(() => monitoringParams({ events: { minimumImportanceTypo: 'x' } })).toThrow(/known: assetIds/);
  });
});
