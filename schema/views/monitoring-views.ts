// Views over token unlocks and monitoring: assets with unlock schedules, events and developments with
// importance as a rank, and the configured monitoring views. Monitoring's ISO texts (with or without
// milliseconds) become the store's one time form.
import { dayOf, IMPORTANCE, lift, weekOf } from './lift.js';
import { liftedView, type LiftedColumn, type ViewSpec } from './view.js';

const TOKEN_UNLOCK_COLUMNS: readonly LiftedColumn[] = [
  {
    name: 'id',
    kind: 'text',
    from: lift.text('id'),
    column: 'id',
    description: 'Token-unlock asset id (UUID); see v_asset_crosswalk for the `/v1` asset.',
  },
  {
    name: 'serial_id',
    kind: 'integer',
    from: lift.integer('serialId'),
    description: 'Numeric id of the asset in the token-unlock service.',
  },
  { name: 'symbol', kind: 'text', from: lift.text('symbol'), description: 'Ticker symbol.' },
  { name: 'name', kind: 'text', from: lift.text('name'), description: 'Display name.' },
  { name: 'slug', kind: 'text', from: lift.text('slug'), description: 'URL slug.' },
  { name: 'category', kind: 'text', from: lift.text('category'), description: 'Category.' },
  { name: 'sector', kind: 'text', from: lift.text('sector'), description: 'Sector.' },
  { name: 'tags', kind: 'json', from: lift.json('tags'), description: 'Tags (JSON array of strings).' },
  { name: 'genesis_date', kind: 'timestamp', from: lift.isoTime('genesisDate'), description: 'When the token’s unlock schedule starts.' },
  {
    name: 'projected_end_date',
    kind: 'timestamp',
    from: lift.isoTime('projectedEndDate'),
    description: 'When the last scheduled unlock is projected; later than now means unlocks are still ahead.',
  },
  { name: 'other_info', kind: 'text', from: lift.text('otherInfo'), description: 'Free-text notes on the schedule.' },
];

const startedAt = lift.isoTime('startedAt');
const startedAtColumn = lift.timeColumn('started_at');
// The live view reads the columns the sync stored from the same fields (LiftedColumn.live).
const EVENT_COLUMNS: readonly LiftedColumn[] = [
  { name: 'id', kind: 'text', from: lift.text('id'), column: 'id', description: 'Monitoring event id (UUID).' },
  { name: 'slug', kind: 'text', from: lift.text('slug'), live: lift.column('slug'), description: 'URL slug.' },
  { name: 'title', kind: 'text', from: lift.text('title'), live: lift.column('title'), description: 'Headline.' },
  { name: 'summary', kind: 'text', from: lift.text('summary'), live: lift.column('summary'), description: 'Summary (Markdown).' },
  { name: 'industry', kind: 'text', from: lift.text('industry'), live: lift.column('industry'), description: 'Industry (e.g. Crypto).' },
  {
    name: 'importance',
    kind: 'text',
    from: lift.text('importance'),
    live: lift.column('importance'),
    description: "Importance: 'not-important', 'low', 'medium' or 'high'.",
  },
  {
    name: 'importance_rank',
    kind: 'integer',
    from: lift.rank('importance', IMPORTANCE),
    live: lift.rankColumn('importance', IMPORTANCE),
    description: 'Importance as an ordered rank: 0 not-important, 1 low, 2 medium, 3 high.',
  },
  {
    name: 'verified',
    kind: 'boolean',
    from: lift.boolean('verified'),
    live: lift.column('verified'),
    description: 'Whether the event is verified.',
  },
  {
    name: 'actionable',
    kind: 'boolean',
    from: lift.boolean('actionable'),
    live: lift.column('actionable'),
    description: 'Whether the event is actionable.',
  },
  {
    name: 'governance',
    kind: 'boolean',
    from: lift.boolean('governance'),
    live: lift.column('governance'),
    description: 'Whether the event concerns governance.',
  },
  {
    name: 'development_count',
    kind: 'integer',
    from: lift.integer('developmentCount'),
    live: lift.column('development_count'),
    description: 'Number of developments in the event.',
  },
  {
    name: 'document_count',
    kind: 'integer',
    from: lift.integer('documentCount'),
    live: lift.column('document_count'),
    description: 'Number of source documents.',
  },
  {
    name: 'intel_categories',
    kind: 'json',
    from: lift.json('intelCategories'),
    live: lift.column('intel_categories'),
    description: 'Category slugs (JSON array; one row each in v_event_categories).',
  },
  {
    name: 'intel_subcategories',
    kind: 'json',
    from: lift.json('intelSubcategories'),
    live: lift.column('intel_subcategories'),
    description: 'Subcategory slugs (JSON array).',
  },
  { name: 'started_at', kind: 'timestamp', from: startedAt, live: startedAtColumn, description: 'When the event started.' },
  {
    name: 'started_on',
    kind: 'date',
    from: (d, a) => dayOf(d, startedAt(d, a)),
    live: (d, a) => dayOf(d, startedAtColumn(d, a)),
    description: 'The UTC day it started.',
  },
  {
    name: 'started_week',
    kind: 'date',
    from: (d, a) => weekOf(d, startedAt(d, a)),
    live: (d, a) => weekOf(d, startedAtColumn(d, a)),
    description: 'The Monday of the ISO week it started (UTC).',
  },
  {
    name: 'ended_at',
    kind: 'timestamp',
    from: lift.isoTime('endedAt'),
    live: lift.timeColumn('ended_at'),
    description: 'When the event ended, if it has.',
  },
  {
    name: 'created_at',
    kind: 'timestamp',
    from: lift.isoTime('createdAt'),
    live: lift.timeColumn('created_at'),
    description: 'When the service created the event.',
  },
  {
    name: 'updated_at',
    kind: 'timestamp',
    from: lift.isoTime('updatedAt'),
    live: lift.timeColumn('updated_at'),
    description: 'When the service last updated the event.',
  },
];

// Developments are written by the sync (detail records) and by the receiver (webhook summaries, whose
// raw has another shape): their typed base columns are the one form both writers agree on.
const DEVELOPMENT_COLUMNS: readonly LiftedColumn[] = [
  { name: 'id', kind: 'text', from: lift.column('id'), description: 'Development id (UUID).' },
  { name: 'event_id', kind: 'text', from: lift.column('event_id'), description: 'The event it belongs to (v_events.id).' },
  { name: 'title', kind: 'text', from: lift.column('title'), description: 'Headline.' },
  { name: 'summary', kind: 'text', from: lift.column('summary'), description: 'Summary (Markdown).' },
  {
    name: 'importance',
    kind: 'text',
    from: lift.column('importance'),
    description: "Importance: 'not-important', 'low', 'medium' or 'high'.",
  },
  {
    name: 'importance_rank',
    kind: 'integer',
    from: lift.rankColumn('importance', IMPORTANCE),
    description: 'Importance as an ordered rank: 0 not-important .. 3 high.',
  },
  {
    name: 'verified',
    kind: 'boolean',
    from: lift.column('verified'),
    description: 'Whether it is verified (null until the detail is fetched, for webhook arrivals).',
  },
  { name: 'actionable', kind: 'boolean', from: lift.column('actionable'), description: 'Whether it is actionable.' },
  { name: 'intel_categories', kind: 'json', from: lift.column('intel_categories'), description: 'Category slugs (JSON array).' },
  {
    name: 'documents',
    kind: 'json',
    from: lift.column('documents'),
    description: 'Source documents (JSON array of {url, title}); null until the detail is fetched.',
  },
  { name: 'started_at', kind: 'timestamp', from: lift.timeColumn('started_at'), description: 'When the development started.' },
  { name: 'ended_at', kind: 'timestamp', from: lift.timeColumn('ended_at'), description: 'When it ended, if it has.' },
  { name: 'created_at', kind: 'timestamp', from: lift.timeColumn('created_at'), description: 'When the service created it.' },
  { name: 'updated_at', kind: 'timestamp', from: lift.timeColumn('updated_at'), description: 'When the service last updated it.' },
  {
    name: 'detail_fetched_at',
    kind: 'timestamp',
    from: lift.timeColumn('detail_fetched_at'),
    description: 'When the mirror fetched its detail; null while only the summary is known.',
  },
];

/** The developments table's columns DEVELOPMENT_COLUMNS read (its versions view reads them from typed_row). */
const DEVELOPMENT_TABLE_COLUMNS = [
  'id',
  'event_id',
  'title',
  'summary',
  'importance',
  'verified',
  'actionable',
  'intel_categories',
  'documents',
  'started_at',
  'ended_at',
  'created_at',
  'updated_at',
  'detail_fetched_at',
] as const;

const VIEW_COLUMNS: readonly LiftedColumn[] = [
  { name: 'id', kind: 'text', from: lift.text('id'), column: 'id', description: 'Monitoring view id (UUID).' },
  { name: 'slug', kind: 'text', from: lift.text('slug'), description: 'URL slug.' },
  { name: 'name', kind: 'text', from: lift.text('name'), description: 'The view’s name.' },
  {
    name: 'view_label',
    kind: 'text',
    from: (_d, r) =>
      `case when (select count(*) from monitoring_views o where o.deleted_at is null and o.name = ${r}.name) > 1 ` +
      `then ${r}.name || ' (' || substr(${r}.id, 1, 8) || ')' else ${r}.name end`,
    description: 'The name, unique: followed by the first 8 characters of the id where another view has the same name.',
  },
  {
    name: 'configuration_type',
    kind: 'text',
    from: lift.text('configurationType'),
    description: 'How the view is configured (e.g. custom).',
  },
  { name: 'team_shared', kind: 'boolean', from: lift.boolean('teamShared'), description: 'Whether the view is shared with the team.' },
  {
    name: 'match_count_24h',
    kind: 'integer',
    from: lift.integer('matchCount24h'),
    description: 'Matches in the last 24 hours, as the service counted them.',
  },
  { name: 'last_match_at', kind: 'timestamp', from: lift.isoTime('lastMatchAt'), description: 'When the view last matched.' },
  {
    name: 'evaluation_start_at',
    kind: 'timestamp',
    from: lift.isoTime('evaluationStartAt'),
    description: 'From when the view evaluates events.',
  },
  {
    name: 'minimum_importance',
    kind: 'text',
    from: lift.text('minimumImportance'),
    description: "Lowest importance matched; '' for no minimum.",
  },
  {
    name: 'minimum_importance_rank',
    kind: 'integer',
    from: lift.rank('minimumImportance', IMPORTANCE),
    description: 'The minimum as a rank (0..3), null for no minimum.',
  },
  {
    name: 'intel_categories',
    kind: 'json',
    from: lift.json('intelCategories'),
    description: 'Categories matched (JSON array; empty = all).',
  },
];

export const monitoringViews: readonly ViewSpec[] = [
  ...liftedView({
    name: 'v_token_unlocks',
    description: 'Live assets with token-unlock coverage and their schedule span.',
    table: 'token_unlock_assets',
    columns: TOKEN_UNLOCK_COLUMNS,
    history: true,
  }),
  ...liftedView({
    name: 'v_events',
    description: 'Live monitoring events, importance as an ordered rank, with their start day and week.',
    table: 'monitoring_events',
    columns: EVENT_COLUMNS,
    history: true,
  }),
  ...liftedView({
    name: 'v_developments',
    description: 'Live monitoring developments (the updates inside an event).',
    table: 'monitoring_developments',
    columns: DEVELOPMENT_COLUMNS,
    history: true,
    tableColumns: DEVELOPMENT_TABLE_COLUMNS,
  }),
  ...liftedView({
    name: 'v_monitoring_views',
    description: 'Monitoring views the mirror is configured to follow.',
    table: 'monitoring_views',
    columns: VIEW_COLUMNS,
    history: true,
    tableColumns: ['id', 'name'], // view_label
  }),
];
