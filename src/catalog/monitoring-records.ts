// How monitoring records become rows: a view, an event, a development as its event lists it, and the
// columns a development's fetched detail sets. A development is first known from its summary inside the
// event: its row_hash is the summary's hash (the detail never decides a refetch).
import { isoTimeOf } from './mapping.js';
import type { ColumnMap, MappedTable } from './types.js';

/** A view's record (`GET /monitoring/v2/monitoring-views/{id}`, in `data`): mirrored into monitoring_views. */
export const viewRecord = {
  name: 'monitoring-views',
  table: 'monitoring_views',
  key: ['id'],
  required: ['id'],
  columns: {
    id: 'id',
    slug: 'slug',
    name: 'name',
    configuration_type: 'configurationType',
    team_shared: 'teamShared',
    is_owner: 'isOwner',
    match_count_24h: 'matchCount24h',
    last_match_at: isoTimeOf('lastMatchAt'),
    evaluation_start_at: isoTimeOf('evaluationStartAt'),
    asset_ids: 'assetIds',
    asset_sectors: 'assetSectors',
    asset_subsectors: 'assetSubsectors',
    asset_pre_tge: 'assetPreTge',
    verified: 'verified',
    actionable: 'actionable',
    governance: 'governance',
    asset_ecosystem_network_ids: 'assetEcosystemNetworkIds',
    intel_categories: 'intelCategories',
    intel_subcategories: 'intelSubcategories',
    minimum_importance: 'minimumImportance',
  },
} as const satisfies MappedTable;

const SHARED = {
  slug: 'slug',
  title: 'title',
  summary: 'summary',
  importance: 'importance',
  verified: 'verified',
  actionable: 'actionable',
  governance: 'governance',
  intel_categories: 'intelCategories',
  intel_subcategories: 'intelSubcategories',
  started_at: isoTimeOf('startedAt'),
  ended_at: isoTimeOf('endedAt'),
} as const;

export const eventRecord = {
  name: 'monitoring-events',
  table: 'monitoring_events',
  key: ['id'],
  required: ['id', 'startedAt'],
  columns: {
    id: 'id',
    ...SHARED,
    industry: 'industry',
    development_count: 'developmentCount',
    document_count: 'documentCount',
    created_at: isoTimeOf('createdAt'),
    updated_at: isoTimeOf('updatedAt'),
  },
} as const satisfies MappedTable;

/** A development as listed in its event (no documents, assets, industry or timestamps beyond start/end). */
export const developmentSummary = {
  name: 'monitoring-events',
  label: 'development',
  table: 'monitoring_developments',
  key: ['id'],
  required: ['id'],
  columns: { id: 'id', ...SHARED },
} as const satisfies MappedTable;

/** The detail's columns: everything a summary has, plus what only the detail carries. */
export const DETAIL_COLUMNS = {
  ...SHARED,
  industry: 'industry',
  documents: 'documents',
  assets: 'assets',
  created_at: isoTimeOf('createdAt'),
  updated_at: isoTimeOf('updatedAt'),
  event_id: 'event.id',
} as const satisfies ColumnMap;
