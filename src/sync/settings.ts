// The settings of a run, from the configuration and the sync command's flags.
import { splitList, toSelection, type FileConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { monitoringParams } from '../catalog/query-params.js';
import { DEFAULT_DETAILS } from '../requests/details-backlog.js';
import type { Selection, SyncSettings } from './context.js';

export interface SettingsFlags {
  full?: boolean;
  /** `parent=selection` items, e.g. assets=top:100. */
  select?: readonly string[];
  metricProjects?: string;
  pageWindow?: number;
  /** `--confirm-deletions`: the operator's word for deletions that would otherwise wait (deletion-gate.ts). */
  confirmDeletions?: boolean;
}

export function syncSettings(config: FileConfig, flags: SettingsFlags = {}): SyncSettings {
  const selection: Record<string, Selection> = {};
  for (const [parent, value] of Object.entries(config.selection ?? {})) selection[parent] = toSelection(value);
  for (const item of flags.select ?? []) {
    const [parent, value] = item.split('=', 2);
    if (!parent || !value) throw new ConfigError(`--select takes parent=selection (e.g. assets=top:100), got "${item}"`);
    try {
      selection[parent] = toSelection(value);
    } catch (error) {
      throw error instanceof ConfigError ? new ConfigError(`--select ${item}: ${error.message}`) : error;
    }
  }
  return {
    mode: flags.full ? 'full' : 'incremental',
    pageWindow: flags.pageWindow ?? config.pageWindow ?? 4,
    lookbackDays: config.lookbackDays ?? {},
    selection,
    fanout: { metricProjects: flags.metricProjects ? splitList(flags.metricProjects) : (config.metricProjects ?? []) },
    fanoutConcurrency: config.fanoutConcurrency ?? 8,
    topAssets: config.topAssets,
    maxPagesPerList: config.maxPagesPerList,
    maxDeleteShare: config.maxDeleteShare,
    confirmDeletionsAfterHours: config.confirmDeletionsAfterHours,
    confirmDeletions: flags.confirmDeletions === true,
    schemaChanges: config.schemaChanges,
    monitoring: {
      views: config.monitoring?.views ?? [],
      events: config.monitoring?.events ?? {},
      tokenUnlocks: config.monitoring?.tokenUnlocks ?? {},
      fullPassEveryHours: config.monitoring?.fullPassEveryHours ?? 24,
      params: monitoringParams(config.monitoring?.queryParams),
      details: { ...DEFAULT_DETAILS, ...config.monitoring?.details },
    },
  };
}
