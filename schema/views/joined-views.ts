// Views that join across tables and id spaces: the asset crosswalk (`/v1` integer ids to the UUIDs of
// token unlocks and monitoring), events by category and by asset, alerts with their true times, and
// the history of changed rows.
import { dayOf, doubleType, IMPORTANCE, isoColumn, lift, type ViewDialect } from './lift.js';
import type { ViewSpec } from './view.js';

// Names several views share (configured ones, and ones alerts carry), for the unique label: read from
// alert_days (a row per view, name and day) rather than from a million alerts, and from its distinct
// views and names first (its key's first columns: the names of 35,000 rows at scale 10 took half of
// v_alerts_per_day's count in SQLite 3.40 when each row looked its view up). A subquery the label reads
// (computed once), not a WITH: PostgreSQL does not flatten a view with a WITH into the query that reads it,
// so a count of v_alerts formed a row of 20 nulls per alert (166 ms of CPU at 920,000 alerts, against
// 67 ms for alert_history's own count).
const REPEATED_NAMES = `(select name from (
    select coalesce(hv.name, nullif(h.view_name, '')) as name, h.view_id
    from (select distinct view_id, view_name from alert_days) h left join monitoring_views hv on hv.id = h.view_id
    union
    select m.name, m.id from monitoring_views m where m.deleted_at is null
  ) k group by name having count(distinct view_id) > 1)`;
const viewLabel = (name: string, viewId: string) =>
  `case when ${name} in ${REPEATED_NAMES} then ${name} || ' (' || substr(${viewId}, 1, 8) || ')' else ${name} end`;

export const joinedViews: readonly ViewSpec[] = [
  {
    name: 'v_asset_crosswalk',
    description:
      'Links token-unlock assets and monitoring assets (UUIDs) to `/v1` assets (integer ids) by slug, symbol and name: ' +
      'one row per token-unlock or monitoring asset, with how the link was made and how sure it is. Unmatched assets have a null v1_asset_id.',
    columns: [
      { name: 'source', kind: 'text', description: "Which id space the asset comes from: 'token_unlocks' or 'monitoring'." },
      { name: 'source_asset_id', kind: 'text', description: 'Its id there (v_token_unlocks.id or v_event_assets.asset_id).' },
      { name: 'source_slug', kind: 'text', description: 'Its slug there.' },
      { name: 'source_symbol', kind: 'text', description: 'Its symbol there.' },
      { name: 'source_name', kind: 'text', description: 'Its name there.' },
      { name: 'v1_asset_id', kind: 'integer', description: 'The linked `/v1` asset (v_assets.id); null when nothing matched.' },
      {
        name: 'match_method',
        kind: 'text',
        description: "How: 'slug' (exact), 'symbol_and_name', 'name' or 'symbol' (case-insensitive), strongest first.",
      },
      {
        name: 'confidence',
        kind: 'double',
        description:
          'How sure, 0..1: 0.95 slug, 0.9 symbol and name, 0.6 name, 0.4 symbol, divided by the number of `/v1` assets that matched equally.',
      },
      {
        name: 'candidates',
        kind: 'integer',
        description: 'How many `/v1` assets matched equally well (the one linked has the best market cap rank).',
      },
    ],
    // A table kept by triggers (migration 0060): computed here, it took 0.4 s at scale 10 on SQLite.
    // Each column named by its table's alias: read as it is, it keeps the table's index (a join on source_asset_id).
    sql: () => `select x.source, x.source_asset_id, x.source_slug, x.source_symbol, x.source_name, x.v1_asset_id, x.match_method,
  x.confidence, x.candidates
from asset_crosswalk x`,
  },
  {
    name: 'v_event_categories',
    description: 'One row per live monitoring event and category it is filed under.',
    columns: [
      { name: 'event_id', kind: 'text', description: 'The event (v_events.id).' },
      { name: 'category_slug', kind: 'text', description: 'Category slug.' },
      { name: 'category_name', kind: 'text', description: 'Category name, from the category taxonomy.' },
    ],
    sql: () => `select ec.event_id, ec.category_slug, c.name as category_name
from monitoring_event_categories ec
  join monitoring_events e on e.id = ec.event_id and e.deleted_at is null
  left join monitoring_categories c on c.slug = ec.category_slug`,
  },
  {
    name: 'v_event_assets',
    description: 'One row per live monitoring event and asset it concerns, with the linked `/v1` asset from v_asset_crosswalk.',
    columns: [
      { name: 'event_id', kind: 'text', description: 'The event (v_events.id).' },
      { name: 'asset_id', kind: 'text', description: 'Monitoring asset id (UUID).' },
      { name: 'name', kind: 'text', description: 'Asset name.' },
      { name: 'slug', kind: 'text', description: 'Asset slug.' },
      { name: 'symbol', kind: 'text', description: 'Asset symbol.' },
      { name: 'class', kind: 'text', description: "The asset's role in the event (e.g. 'primary')." },
      { name: 'v1_asset_id', kind: 'integer', description: 'The linked `/v1` asset (v_assets.id), null when none matched.' },
      { name: 'match_method', kind: 'text', description: 'How the link was made (see v_asset_crosswalk).' },
    ],
    sql: () => `select ea.event_id, ea.asset_id, ea.name, ea.slug, ea.symbol, ea.class, x.v1_asset_id, x.match_method
from monitoring_event_assets ea
  join monitoring_events e on e.id = ea.event_id and e.deleted_at is null
  left join asset_crosswalk x on x.source = 'monitoring' and x.source_asset_id = ea.asset_id`,
  },
  {
    name: 'v_alerts',
    description:
      'Alert history: one row per (monitoring view, development) match, from webhooks and backfills, with when the match ' +
      'happened beside when the mirror learned of it, how it arrived (webhook, backfill or both, each with its time), the ' +
      'deliveries that carried it, and the view named even when it is not configured.',
    columns: [
      { name: 'view_id', kind: 'text', description: 'The monitoring view that matched.' },
      { name: 'view_name', kind: 'text', description: "The view's name: from v_monitoring_views, else as the webhook named it." },
      {
        name: 'view_label',
        kind: 'text',
        description:
          "The view's name, unique: where several views share a name, it is followed by the first 8 characters of the view's id (`Governance (0b7c2a9e)`). Group by this, not by the name.",
      },
      { name: 'event_id', kind: 'text', description: 'The matching event (v_events.id).' },
      { name: 'event_title', kind: 'text', description: "The event's headline, when the event is mirrored." },
      { name: 'importance', kind: 'text', description: "The event's importance." },
      { name: 'importance_rank', kind: 'integer', description: 'Importance as a rank: 0 not-important .. 3 high.' },
      {
        name: 'development_id',
        kind: 'text',
        description: 'The development that raised the alert (v_developments.id); null for a backfilled event that listed none.',
      },
      {
        name: 'source',
        kind: 'text',
        description: "How the alert first arrived: 'webhook' (received) or 'backfill' (read from the view's events).",
      },
      { name: 'arrived_by', kind: 'text', description: "'webhook', 'backfill', or 'both' when a webhook and a backfill each brought it." },
      {
        name: 'matched_at',
        kind: 'timestamp',
        description:
          "When the match happened: the first webhook's timestamp, else (backfilled only) the development's (else the event's) start.",
      },
      { name: 'matched_on', kind: 'date', description: 'The UTC day of matched_at.' },
      { name: 'learned_at', kind: 'timestamp', description: 'When the mirror first stored the alert.' },
      { name: 'webhook_at', kind: 'timestamp', description: 'When the first webhook delivery of it was received; null if none was.' },
      { name: 'backfill_at', kind: 'timestamp', description: 'When a backfill first read it; null if none has.' },
      { name: 'delivery_id', kind: 'text', description: 'The first webhook delivery that carried it (alert_deliveries.delivery_id).' },
      {
        name: 'delivery_ids',
        kind: 'text',
        description: 'Every webhook delivery id that carried it to this view, comma-separated in the order received; null if none.',
      },
      {
        name: 'known_by',
        kind: 'text',
        description:
          "How the mirror knows the alert: 'webhook' (delivered), 'reconstructed' (a backfill found the development matches the view's " +
          "own predicates), 'both', or 'event-match' (a backfill of an older ds-mirror: the view matched the event, the development's " +
          'own match was never checked; leave these out of per-development counts).',
      },
      {
        name: 'reconstructed_at',
        kind: 'timestamp',
        description: "When a backfill first reconstructed it from the view's predicates; null if none has.",
      },
      {
        name: 'unchecked_predicates',
        kind: 'text',
        description:
          "The view's predicates the reconstruction could not test from mirrored data, comma-separated (e.g. 'assetSectors'): the " +
          "alert rests on the service having listed the event for them. '' when every predicate was tested; null if not reconstructed.",
      },
    ],
    sql: (d) => {
      const matched = isoColumn(d, 'coalesce(a.matched_at, a.first_seen_at)');
      const name = 'coalesce(a.configured_name, a.view_name)';
      const carried =
        'from alert_deliveries p where p.development_id = a.development_id and p.view_id = a.view_id and p.event_id = a.event_id';
      // The view's and the event's columns are looked up per row rather than joined: a count (SQLite counts
      // a view without computing its columns) then reads alert_history alone.
      const ofEvent = (e: string) => `(select ${e} from monitoring_events e where e.id = a.event_id)`;
      return `select a.view_id, ${name} as view_name, ${viewLabel(name, 'a.view_id')} as view_label,
  a.event_id, ${ofEvent('e.title')} as event_title,
  ${ofEvent('e.importance')} as importance, ${ofEvent(lift.rankColumn('importance', IMPORTANCE)(d, 'e'))} as importance_rank,
  nullif(a.development_id, '') as development_id,
  a.source, case when a.webhook_at is not null and a.backfill_at is not null then 'both' else a.source end as arrived_by,
  ${matched} as matched_at, ${dayOf(d, matched)} as matched_on,
  ${isoColumn(d, 'a.first_seen_at')} as learned_at, ${isoColumn(d, 'a.webhook_at')} as webhook_at, ${isoColumn(d, 'a.backfill_at')} as backfill_at,
  (select p.delivery_id ${carried} order by p.received_at, p.delivery_id limit 1) as delivery_id,
  ${d.orderedList('p.delivery_id', carried, 'p.received_at, p.delivery_id')} as delivery_ids,
  case when a.webhook_at is not null and a.reconstructed_at is not null then 'both' when a.webhook_at is not null then 'webhook'
    when a.reconstructed_at is not null then 'reconstructed' else 'event-match' end as known_by,
  ${isoColumn(d, 'a.reconstructed_at')} as reconstructed_at, a.unchecked_predicates
from (select h.*, (select v.name from monitoring_views v where v.id = h.view_id) as configured_name from alert_history h) a`;
    },
  },
  {
    name: 'v_alerts_per_day',
    description:
      'Alerts per monitoring view and UTC day of the match, by how each first arrived and how the mirror knows it: the counts of ' +
      'v_alerts, kept as alerts are written (a table, alert_days), for dashboards that chart alerts over time.',
    columns: [
      { name: 'matched_on', kind: 'date', description: 'The UTC day the matches happened (v_alerts.matched_on).' },
      { name: 'view_id', kind: 'text', description: 'The monitoring view.' },
      { name: 'view_name', kind: 'text', description: "The view's name, as v_alerts.view_name." },
      { name: 'view_label', kind: 'text', description: "The view's name, unique (as v_alerts.view_label): group by this." },
      { name: 'source', kind: 'text', description: "How the alerts first arrived: 'webhook' or 'backfill'." },
      {
        name: 'known_by',
        kind: 'text',
        description:
          "'webhook', 'reconstructed', 'both' or 'event-match' (see v_alerts.known_by; leave 'event-match' out of per-development counts).",
      },
      { name: 'alerts', kind: 'integer', description: 'How many alerts.' },
    ],
    sql: (d) => {
      const name = `coalesce(v.name, nullif(a.view_name, ''))`;
      return `select a.matched_on, a.view_id, ${name} as view_name, ${viewLabel(name, 'a.view_id')} as view_label,
  a.source, a.known_by, cast(sum(a.alerts) as ${d.integerType}) as alerts
from alert_days a
  left join monitoring_views v on v.id = a.view_id
group by a.matched_on, a.view_id, ${name}, a.source, a.known_by`;
    },
  },
  {
    name: 'v_usage',
    description:
      'Requests per quota family and UTC day (every worker of this database together), beside the quotas the runs worked under ' +
      '(per minute, day and month), and the month so far: "how much of my plan did I use" in plain SQL.',
    columns: [
      { name: 'family', kind: 'text', description: "Quota family: 'v1' (with charts), 'tokenUnlocks', 'monitoring' or 'open'." },
      { name: 'day', kind: 'date', description: 'The UTC day.' },
      { name: 'requests', kind: 'integer', description: 'Requests sent that day (usage_ledger).' },
      {
        name: 'minute_quota',
        kind: 'integer',
        description: 'The per-minute allowance the runs of that day worked under (the pace the client keeps); null for none.',
      },
      { name: 'day_quota', kind: 'integer', description: 'The daily quota the runs of that day worked under; null for none.' },
      { name: 'day_share', kind: 'double', description: 'requests / day_quota; null without a daily quota.' },
      { name: 'month', kind: 'text', description: 'The calendar month, YYYY-MM.' },
      { name: 'month_requests', kind: 'integer', description: 'Requests of the month up to and including this day.' },
      { name: 'month_quota', kind: 'integer', description: 'The monthly quota the runs of that day worked under; null for none.' },
      { name: 'month_share', kind: 'double', description: 'month_requests / month_quota; null without a monthly quota.' },
    ],
    sql: (d) => {
      const dbl = doubleType(d);
      const month = 'substr(cast(l.day as text), 1, 7)'; // a date on PostgreSQL, text on SQLite
      const monthSoFar = `sum(l.requests) over (partition by l.family, ${month} order by l.day)`;
      return `select l.family, ${d.dateColumn('l.day')} as day, l.requests,
  q.per_minute as minute_quota, q.per_day as day_quota,
  case when q.per_day > 0 then cast(l.requests as ${dbl}) / q.per_day end as day_share,
  ${month} as month,
  cast(${monthSoFar} as ${d.integerType}) as month_requests,
  q.per_month as month_quota,
  case when q.per_month > 0 then cast(${monthSoFar} as ${dbl}) / q.per_month end as month_share
from usage_ledger l
  left join usage_quotas q on q.family = l.family and q.day = l.day`;
    },
  },
  {
    name: 'v_changes',
    description:
      'Every kept previous version of a mirrored row (row_history): which table and key changed, how, and in which run. ' +
      '"What the last run that changed a table changed": where ended_by_run_id = max(ended_by_run_id) of that table_name ' +
      '(the newest run is often a quiet monitoring run).',
    columns: [
      { name: 'table_name', kind: 'text', description: 'The mirrored table.' },
      { name: 'row_key', kind: 'text', description: "The row's primary key as text (several key columns joined by '|')." },
      { name: 'change', kind: 'text', description: "'updated' (content changed) or 'deleted' (gone upstream)." },
      { name: 'valid_from', kind: 'timestamp', description: 'When the previous version was written.' },
      { name: 'valid_to', kind: 'timestamp', description: 'When it was replaced or deleted.' },
      { name: 'run_id', kind: 'integer', description: 'The run that wrote the previous version.' },
      { name: 'ended_by_run_id', kind: 'integer', description: 'The run that replaced or deleted it.' },
      { name: 'raw', kind: 'json', description: 'The previous version as received.' },
    ],
    sql: (
      d,
    ) => `select h.table_name, h.row_key, h.change, ${isoColumn(d, 'h.valid_from')} as valid_from, ${isoColumn(d, 'h.valid_to')} as valid_to,
  h.run_id, h.ended_by_run_id, h.raw
from row_history h`,
  },
];
