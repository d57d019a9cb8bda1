// Token unlocks, monitoring intelligence and webhook alerts. Monitoring times are stored as the
// services send them (ISO text on SQLite, timestamptz on PostgreSQL); the v_* views normalise them.
import type { TableSource } from './types.js';

const flags = {
  verified: 'Whether it is verified.',
  actionable: 'Whether it is actionable.',
  governance: 'Whether it concerns governance.',
};
const intel = { intel_categories: 'Category slugs (JSON array).', intel_subcategories: 'Subcategory slugs (JSON array).' };
const times = {
  started_at: 'When it started.',
  ended_at: 'When it ended, if it has.',
  created_at: 'When the service created it.',
  updated_at: 'When the service last updated it.',
};
const importance = "'not-important', 'low', 'medium' or 'high' (ranked in the v_* views).";

export const monitoringTables: readonly TableSource[] = [
  {
    name: 'token_unlock_assets',
    group: 'token unlocks',
    mirrored: true,
    description: 'Assets with token-unlock coverage (`/token-unlocks/v1/assets`), keyed by UUID.',
    columns: {
      id: 'Asset id (UUID).',
      serial_id: 'Numeric id in the token-unlock service.',
      symbol: 'Ticker symbol.',
      name: 'Display name.',
      slug: 'URL slug.',
      genesis_date: 'When the unlock schedule starts.',
      projected_end_date: 'When the last unlock is projected.',
      category: 'Category.',
      sector: 'Sector.',
      tags: 'Tags (JSON array).',
      other_info: 'Free-text notes.',
    },
  },
  {
    name: 'monitoring_categories',
    group: 'monitoring',
    mirrored: true,
    description: 'The monitoring category taxonomy.',
    columns: { slug: 'Category slug (the key).', name: 'Name.', description: 'Description.' },
  },
  {
    name: 'monitoring_subcategories',
    group: 'monitoring',
    mirrored: true,
    description: 'Subcategories of each monitoring category.',
    columns: {
      category_slug: 'The category (monitoring_categories.slug).',
      slug: 'Subcategory slug.',
      name: 'Name.',
      description: 'Description.',
    },
  },
  {
    name: 'monitoring_events',
    group: 'monitoring',
    mirrored: true,
    description: 'Monitoring events (`/monitoring/v2/events`), keyed by UUID.',
    columns: {
      id: 'Event id (UUID).',
      slug: 'URL slug.',
      title: 'Headline.',
      summary: 'Summary (Markdown).',
      industry: 'Industry.',
      development_count: 'Number of developments.',
      document_count: 'Number of source documents.',
      importance,
      ...flags,
      ...intel,
      ...times,
    },
  },
  {
    name: 'monitoring_event_assets',
    group: 'monitoring',
    description: 'The assets of each event, replaced whole when the event changes; v_asset_crosswalk links them to `/v1` assets.',
    columns: {
      event_id: 'The event (monitoring_events.id).',
      asset_id: 'Monitoring asset id (UUID).',
      name: 'Asset name.',
      slug: 'Asset slug.',
      symbol: 'Asset symbol.',
      class: "The asset's role in the event (e.g. 'primary').",
    },
  },
  {
    name: 'monitoring_event_categories',
    group: 'monitoring',
    description: 'The categories of each event.',
    columns: { event_id: 'The event (monitoring_events.id).', category_slug: 'The category (monitoring_categories.slug).' },
  },
  {
    name: 'monitoring_event_subcategories',
    group: 'monitoring',
    description: 'The subcategories of each event.',
    columns: { event_id: 'The event (monitoring_events.id).', subcategory_slug: 'The subcategory slug.' },
  },
  {
    name: 'monitoring_developments',
    group: 'monitoring',
    mirrored: true,
    description: "Developments (updates inside an event): first known from the event's summary or a webhook, completed by a detail fetch.",
    columns: {
      id: 'Development id (UUID).',
      event_id: 'The event (monitoring_events.id).',
      slug: 'URL slug.',
      title: 'Headline.',
      summary: 'Summary (Markdown).',
      industry: 'Industry.',
      importance,
      ...flags,
      ...intel,
      documents: 'Source documents (JSON array of {url, title}).',
      assets: 'Assets concerned (JSON array).',
      ...times,
      detail_fetched_at: 'When the detail was fetched; null while only the summary is known.',
    },
  },
  {
    name: 'monitoring_views',
    group: 'monitoring',
    mirrored: true,
    description: 'The monitoring views the mirror follows (configured by id or slug).',
    columns: {
      id: 'View id (UUID).',
      slug: 'URL slug.',
      name: 'Name.',
      configuration_type: 'How the view is configured.',
      team_shared: 'Whether it is shared with the team.',
      is_owner: 'Whether the API key’s user owns it.',
      match_count_24h: 'Matches in the last 24 hours.',
      last_match_at: 'When it last matched.',
      evaluation_start_at: 'From when it evaluates events.',
      asset_ids: 'Asset filter (JSON array).',
      asset_sectors: 'Sector filter (JSON array).',
      asset_subsectors: 'Subsector filter (JSON array).',
      asset_pre_tge: 'Pre-TGE filter.',
      verified: 'Verified filter.',
      actionable: 'Actionable filter.',
      governance: 'Governance filter.',
      asset_ecosystem_network_ids: 'Ecosystem filter (JSON array).',
      ...intel,
      minimum_importance: "Lowest importance matched ('' = none).",
    },
  },
  {
    name: 'webhook_deliveries',
    group: 'alerts',
    description: 'Every signed webhook delivery received, append-only, one row per delivery id.',
    columns: {
      id: 'Delivery id.',
      view_id: 'The view that matched.',
      view_name: "The view's name as the delivery gave it.",
      event_id: 'The matching event.',
      development_id: 'The development that triggered it.',
      type: "Delivery type (e.g. 'monitoring_event').",
      event_timestamp: 'When the match happened, per the delivery.',
      signed: 'Whether the signature was verified.',
      body: 'The body exactly as received (text).',
      received_at: 'When the receiver stored it.',
    },
  },
  {
    name: 'webhook_set_aside',
    group: 'alerts',
    description:
      'Signed webhook deliveries the receiver could not read as an alert (a field it needs missing, or in a type it cannot take ' +
      'without loss), stored whole with why and acknowledged; each is a change of shape of stream webhook-deliveries ' +
      '(v_schema_changes), and is completed when a re-read of its view (the monitoring-views stream, backfill alerts) brings its alert.',
    columns: {
      body_hash: 'Hash of the body: a retry of the same bytes adds no row.',
      id: 'Delivery id, when it could be read; else null.',
      view_id: 'The view it was for, when it could be read; else null.',
      event_id: 'The event, when it could be read; else null.',
      development_id: 'The development, when it could be read; else null.',
      signed: 'Whether the signature was verified.',
      reason: 'Why the receiver could not read it (the fields and what they came as).',
      body: 'The body exactly as received (text).',
      received_at: 'When the receiver stored it.',
      completed_at: 'When a re-read of its view brought the alert it stood for (alert_history); null until then.',
    },
  },
  {
    name: 'alert_deliveries',
    group: 'alerts',
    description:
      'Every (delivery, view) pair received: the service sends one delivery id to every view a development matches, ' +
      'so one id has a row per view; retries add none. A delivery set aside (another shape) has its pair too.',
    columns: {
      delivery_id: 'Delivery id (webhook_deliveries.id).',
      view_id: 'The view it reached.',
      view_name: "The view's name as the delivery gave it.",
      event_id: 'The matching event.',
      development_id: 'The development that triggered it (alert_history.development_id).',
      event_timestamp: 'When the match happened, per the delivery.',
      received_at: 'When the receiver first stored it for this view.',
      state:
        "'read': the receiver read its alert; 'set aside': its payload came in another shape and is kept whole in webhook_set_aside " +
        "(an event or development it lacked is '', a delivery id or view body:<body_hash>), its alert completed by the next re-read of its view.",
    },
  },
  {
    name: 'alert_history',
    group: 'alerts',
    description: 'One row per (monitoring view, event, development) match, filled by the receiver and the backfill alike.',
    columns: {
      view_id: 'The view that matched.',
      event_id: 'The matching event.',
      development_id: "The development that raised the alert; '' for a backfilled event that listed none.",
      view_name: "The view's name as the webhook or the view's record gave it (named even when the view is not configured).",
      matched_at:
        "When the match happened: the first delivery's timestamp, else (backfilled only) the development's (else the event's) start.",
      first_seen_at: 'When the mirror learned of the match.',
      source: "How it first arrived: 'webhook' or 'backfill'.",
      webhook_at: 'When a webhook delivery of it was first received; null if none was.',
      backfill_at: 'When a backfill first read it; null if none has.',
      reconstructed_at:
        "When a backfill first found it by the view's own predicates (one alert per matching development); null if none has.",
      unchecked_predicates:
        "The view's predicates that reconstruction could not test from mirrored data, comma-separated; '' when it tested every one; null if not reconstructed.",
    },
  },
  {
    name: 'alert_days',
    group: 'alerts',
    description:
      'How many alerts alert_history holds per view, name, day and way, kept by triggers as alerts are written (read it through v_alerts_per_day).',
    columns: {
      view_id: 'The view that matched.',
      view_name: "The name the alerts carried (alert_history.view_name); '' for none.",
      matched_on: 'The UTC day of the match (v_alerts.matched_on).',
      source: "How the alerts first arrived: 'webhook' or 'backfill'.",
      known_by: "How the mirror knows them (v_alerts.known_by): 'webhook', 'reconstructed', 'both' or 'event-match'.",
      alerts: 'How many; a bucket that falls to 0 is deleted.',
    },
  },
];
