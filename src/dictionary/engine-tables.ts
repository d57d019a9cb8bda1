// The mirror's own bookkeeping: runs, stream state, quarantine, leases, page hashes, history.
import type { TableSource } from './types.js';

export const engineTables: readonly TableSource[] = [
  {
    name: 'sync_runs',
    group: 'bookkeeping',
    description: 'One row per sync run.',
    columns: {
      id: 'Run id.',
      started_at: 'When the run started.',
      finished_at: 'When it finished; null while running.',
      mode: "'full' or 'incremental'.",
      streams: 'The streams it covered (JSON array).',
      outcome: "'success', 'partial', 'skipped', 'stopped' or 'failed'; null while running.",
      job: 'The scheduled job that started it, if any.',
      owner: 'The worker that ran it (host:pid:random): a later run marks it interrupted when that process is gone.',
    },
  },
  {
    name: 'sync_run_streams',
    group: 'bookkeeping',
    description: 'One row per stream of each run, with its counts.',
    columns: {
      notice:
        'Something a person should know that is not an error: deletions held back because the end of a list was in doubt, records dated in the future, parents with no record upstream.',
      run_id: 'The run (sync_runs.id).',
      stream: 'Stream name.',
      fetched: 'Records fetched.',
      inserted: 'Rows inserted.',
      updated: 'Rows changed.',
      unchanged: 'Rows fetched again unchanged (not written).',
      deleted: 'Rows soft-deleted.',
      errors: 'Records or requests that failed.',
      requests: 'HTTP requests made.',
      duration_ms: 'Time taken, milliseconds.',
      outcome: 'The stream’s outcome.',
      error: 'The error, if any.',
      error_code: "The error's stable code, when it has one: 'DS_DRIFT' (the service changed its shape), 'DS_CONFIG', ...; null otherwise.",
      details: 'Per-item detail records fetched (monitoring development details), apart from the list records.',
    },
  },
  {
    name: 'stream_state',
    group: 'bookkeeping',
    description: 'Per stream: where the next run resumes and how the last one ended.',
    columns: {
      last_notice: "The last run's notice (see sync_run_streams.notice); `status` shows it when there is no error.",
      stream: 'Stream name.',
      checkpoint: 'Where an unfinished pass resumes (JSON); null when the last pass completed.',
      last_success_at: 'When the stream last succeeded.',
      last_error: 'The last error.',
      last_error_code: "The last error's stable code (sync_run_streams.error_code), e.g. 'DS_DRIFT'.",
      last_run_id: 'The last run that covered it.',
      updated_at: 'When this row was last written.',
    },
  },
  {
    name: 'pass_marks',
    group: 'bookkeeping',
    description:
      'Per monitoring list: when its last complete pass ran and the newest date it has seen, which decide whether the next pass is complete or windowed.',
    columns: {
      stream: 'Stream name.',
      part: "What the mark covers: 'full-pass' for the whole events list, a view id for that view's matches.",
      full_pass_at: 'When the last complete (unwindowed) pass finished; null before the first.',
      high_water: "The newest startedAt seen (a view's matches; events read theirs from their table).",
      updated_at: 'When this row was last written.',
      list_rows: "Rows a view's match list held at its last complete pass (bounds the next one's pages); null when unknown.",
    },
  },
  {
    name: 'mirrored_service',
    group: 'bookkeeping',
    description:
      'The service this mirror holds, recorded by the first sync: a sync against another one is refused unless --force switches it.',
    columns: { base_url: 'The base URL, normalised (no credentials, query or trailing slash).', claimed_at: 'When a sync recorded it.' },
  },
  {
    name: 'quarantine',
    group: 'bookkeeping',
    description: 'Upstream records that could not be mirrored, with why.',
    columns: {
      id: 'Row id.',
      stream: 'Stream name.',
      reason: 'Why it was set aside.',
      record: 'The record as received (JSON).',
      seen_at: 'When.',
    },
  },
  {
    name: 'usage_ledger',
    group: 'bookkeeping',
    description:
      'Requests sent to the service per quota family per UTC day, by every worker of this database: what `ds-mirror budget` counts against the plan.',
    columns: {
      family: "Quota family: 'v1' (with charts), 'tokenUnlocks', 'monitoring' or 'open' (keyless /v1 paths).",
      day: 'UTC day: a date on PostgreSQL, YYYY-MM-DD text on SQLite.',
      requests:
        'Requests sent that day, retries included (blocks reserved by a running worker count until it gives back what it did not send).',
    },
  },
  {
    name: 'usage_months',
    group: 'bookkeeping',
    description:
      "Requests per quota family per calendar month (UTC): the sum of the month's usage_ledger days, kept as one row so that workers whose clocks fall on different days of a month never pass its quota together.",
    columns: {
      family: 'Quota family, as in usage_ledger.',
      month: 'The calendar month, YYYY-MM (UTC).',
      requests: "Requests sent that month: always the sum of the month's usage_ledger rows.",
    },
  },
  {
    name: 'usage_quotas',
    group: 'bookkeeping',
    description: "The plan's quotas each run worked under, per quota family and UTC day: what `v_usage` sets the counts against.",
    columns: {
      family: 'Quota family.',
      day: 'UTC day: a date on PostgreSQL, YYYY-MM-DD text on SQLite.',
      per_day: 'Requests a day the plan allows; null for no daily quota.',
      per_month: 'Requests a calendar month the plan allows; null for no monthly quota.',
      per_minute: "Requests a minute the client paces the family to (the plan's per-minute allowance); null for none.",
      set_at: 'When a run last recorded them.',
    },
  },
  {
    name: 'catalog_streams',
    group: 'bookkeeping',
    description:
      'The streams ds-mirror knows (its catalog, which is code), as the last sync recorded them, with the live rows of each table after the last run that ran it: what `v_streams` reads.',
    columns: {
      stream: 'Stream name.',
      table_name: 'The mirrored table it fills.',
      kind: "'list', 'fanout' or 'custom'.",
      opt_in: 'Whether it runs only when named.',
      description: 'What it mirrors.',
      live_rows:
        'No longer written (v_streams and status count the live rows of the table when read); a count left by an older version, else null.',
      counted_at: 'When an older version counted live_rows; null since.',
      recorded_at: 'When this row was last written (the catalog changed).',
    },
  },
  {
    name: 'scheduled_jobs',
    group: 'bookkeeping',
    description:
      "The scheduled jobs as the daemon (at start) or `ds-mirror jobs` last configured them (job files and the config file's overrides), replaced whole each time: what `v_jobs` reads.",
    columns: {
      job: 'Job name.',
      description: 'What it does.',
      schedule: 'Cron schedule.',
      time_zone: 'IANA time zone of the schedule; null for local time.',
      mode: "'incremental' or 'full'.",
      enabled: 'Whether the daemon runs it.',
      streams: 'The streams and groups it names (JSON array).',
      interval_seconds: 'The longest gap between two fires of the schedule over the coming months (SQL cannot read cron).',
      stale_after_seconds: 'interval_seconds plus a grace: a tenth of it, at least ten minutes.',
      recorded_at: 'When it was recorded.',
    },
  },
  {
    name: 'stream_schedules',
    group: 'bookkeeping',
    description:
      'Per stream, the enabled scheduled jobs that run it (groups such as `all` resolved), recorded with scheduled_jobs: what `v_streams` reads.',
    columns: {
      stream: 'Stream name.',
      jobs: 'The jobs, comma-separated.',
      schedules: 'Their cron schedules, in the same order.',
      interval_seconds: "The shortest of those jobs' intervals.",
      stale_after_seconds: 'interval_seconds plus a grace.',
      recorded_at: 'When it was recorded.',
    },
  },
  {
    name: 'quota_holds',
    group: 'bookkeeping',
    description: 'Quotas the service itself said are spent (a 429 announcing it): nothing of that family is sent before `until`.',
    columns: {
      family: 'Quota family.',
      until: 'When the allowance renews.',
      reason: 'What the service said.',
      set_at: 'When the mirror learned it.',
    },
  },
  {
    name: 'schema_objects',
    group: 'bookkeeping',
    description:
      'The repeatable objects (the analyst views with their comments, and the history triggers) and the hash of the definition they were last made from: made again after the migrations when it changes.',
    columns: {
      name: 'Which objects.',
      definition_hash:
        "SHA-256 of their definition (the views' SQL for this store and the dictionary; the triggers' SQL for the mirrored tables' columns).",
      applied_at: 'When they were last made.',
    },
  },
  {
    name: 'asset_crosswalk',
    group: 'bookkeeping',
    description:
      'The asset crosswalk, kept by triggers on assets, token_unlock_assets and monitoring_event_assets in the transaction of each write ' +
      '(read it through v_asset_crosswalk).',
    columns: {
      source: "'token_unlocks' or 'monitoring'.",
      source_asset_id: 'The asset id there.',
      source_slug: 'Its slug (for a monitoring asset, the greatest of its event rows).',
      source_symbol: 'Its symbol (likewise).',
      source_name: 'Its name (likewise).',
      symbol_key: 'The symbol lowered, matched against lower(assets.code).',
      name_key: 'The name lowered, matched against lower(assets.title).',
      v1_asset_id: 'The linked `/v1` asset; null when none matched.',
      match_method: "'slug', 'symbol_and_name', 'name' or 'symbol'.",
      confidence: 'How sure, 0..1 (see v_asset_crosswalk).',
      candidates: 'How many `/v1` assets matched equally well.',
    },
  },
  {
    name: 'asset_crosswalk_pending',
    group: 'bookkeeping',
    description:
      "On PostgreSQL, what a transaction wrote to the crosswalk's sources, recomputed into asset_crosswalk at its commit; empty outside one (and always on SQLite).",
    columns: {
      txid: 'The writing transaction (txid_current()).',
      kind: "'asset' (a `/v1` asset's keys), 'token_unlocks' or 'monitoring' (a source asset), or 'due': one a transaction, the row the recomputation at its commit fires for (once, not once per row).",
      source_asset_id: 'The source asset, for a source.',
      slug: "The `/v1` asset's slug, for an asset.",
      code: 'Its code.',
      title: 'Its title.',
    },
  },
  {
    name: 'view_column_types',
    group: 'bookkeeping',
    description:
      "Always empty: on SQLite each computed column of an analyst view ends with a branch that reads it (`(select <value> union all select t.real_value from view_column_types t)`), so that tools reading the view's columns see their declared types.",
    columns: {
      text_value: 'Declares TEXT (text, JSON, times and dates on SQLite).',
      integer_value: 'Declares INTEGER.',
      real_value: 'Declares REAL.',
      boolean_value: 'Declares BOOLEAN (0/1 on SQLite).',
    },
  },
  {
    name: 'pace_slots',
    group: 'bookkeeping',
    description:
      "The per-minute pace every worker of one PostgreSQL database shares: when each API family's next request may start, by the database's clock (unused on SQLite).",
    columns: {
      family: "Quota family: 'v1' (with charts), 'tokenUnlocks', 'monitoring' or 'open'.",
      next_at:
        'When the next request of the family may start; each request moves it one interval on (the minute over the requests a minute).',
    },
  },
  {
    name: 'leases',
    group: 'bookkeeping',
    description: 'Named leases that keep two workers off one stream or writer.',
    columns: { name: 'Lease name.', owner: 'Who holds it.', expires_at: 'When it lapses unless renewed.' },
  },
  {
    name: 'held_deletions',
    group: 'bookkeeping',
    description:
      'Rows a complete pass was not served but kept live, because it would have deleted more than maxDeleteShare, drained the list more than maxDeleteShare below its confirmed size, or saw their keys back in another case or spacing: deleted when a complete pass hours later misses them too, or by sync --confirm-deletions.',
    columns: {
      stream: 'Stream name.',
      variant: 'Variant of the list (e.g. asset class); empty for a list without variants.',
      key: "The row's key as the mirror compares keys (several columns joined by NUL).",
      held_at: 'When a complete pass first missed it.',
    },
  },
  {
    name: 'deletion_holds',
    group: 'bookkeeping',
    description: 'Why deletions of a stream are held back, as `status` shows it: one row per stream and variant while rows are kept.',
    columns: {
      stream: 'Stream name.',
      variant: 'Variant of the list; empty for a list without variants.',
      held_rows: 'Rows kept live that the last complete pass was not served.',
      reason: 'What was held back, why, and what ends the wait.',
      updated_at: 'When the last complete pass said it.',
    },
  },
  {
    name: 'held_arrivals',
    group: 'bookkeeping',
    description:
      "Records served under a key that differs from a live row's only in case or spacing, kept here instead of beside it: they replace the rows they rename when those rows' held deletion is confirmed (a complete pass hours later agrees, or sync --confirm-deletions), and are forgotten when the rows are served again.",
    columns: {
      stream: 'Stream name.',
      variant: 'Variant of the list; empty for a list without variants.',
      key: 'The key the record was served under, as the mirror compares keys.',
      record: 'The record as served (JSON text).',
      held_at: 'When a pass first served it so.',
    },
  },
  {
    name: 'confirmed_sizes',
    group: 'bookkeeping',
    description:
      "Each list's size at its last confirmed pass (the first complete pass, one whose held deletions a later pass agreed with, or sync --confirm-deletions), raised by any later trusted pass that found it larger: a list that small deletions take more than maxDeleteShare below it is held.",
    columns: {
      stream: 'Stream name.',
      variant: 'Variant of the list; empty for a list without variants.',
      confirmed_rows: 'Rows the list held after its last confirmed pass.',
      confirmed_at: 'When that pass ran.',
      peak_rows: 'The most rows a trusted complete pass found since: what a drain is measured against.',
    },
  },
  {
    name: 'schema_fields',
    group: 'bookkeeping',
    description:
      "Each stream's known shape: every field path its records came with and the JSON types they came in. A pass compares what it sees with it; a typed field keeps the type it had (v_schema_changes says when it came in another).",
    columns: {
      stream: 'Stream name.',
      path: "The field's dotted path in the record (`price.usd`).",
      json_types: "The JSON types it came in, `|`-separated ('number', 'number|string'); nulls left out.",
      share: 'Share of the records of the last pass that carried it (not null).',
      first_seen_at: 'The first pass that saw it.',
      last_seen_at: 'The last pass that saw it with a value.',
    },
  },
  {
    name: 'schema_changes',
    group: 'bookkeeping',
    description: 'Each change of the service’s shape, once per change (read it through v_schema_changes).',
    columns: {
      stream: 'Stream name.',
      path: "The field's dotted path.",
      kind: "'new', 'missing' or 'other type'.",
      seen_type: "The JSON type it came in ('' when missing).",
      expected_type: "The JSON type(s) the mirror knew ('' for a new field).",
      outcome:
        "What the mirror did: 'reported', 'coerced', 'quarantined', 'failed', 'accepted', 'held', 'emptied', 'returned' or 'set aside'.",
      records: 'Records of the last pass that saw the change.',
      share: "Their share of that pass's records.",
      example: 'One example value, cut short; never a field named like a secret.',
      first_seen_at: 'The first pass that saw the change.',
      last_seen_at: 'The last pass that saw it.',
    },
  },
  {
    name: 'page_hashes',
    group: 'bookkeeping',
    description: 'The hash of each list page as last written: a page served again byte for byte is skipped whole.',
    columns: {
      stream: 'Stream name.',
      variant: 'Variant of the list (e.g. asset class).',
      page: 'Page number.',
      request: 'The request that served it.',
      body_hash: 'Hash of the body.',
      records: 'Records on the page.',
      keys: 'Keys the page held (JSON).',
      synced_at: 'When it was written.',
    },
  },
  {
    name: 'fanout_parents',
    group: 'bookkeeping',
    description: 'Per parent of a fan-out: the hash of its children as last written (an unchanged parent costs no write).',
    columns: {
      stream: 'Stream name.',
      parent_key: 'The parent’s key.',
      row_hash: 'Hash of its children.',
      rows: 'Children written.',
      synced_at: 'When.',
    },
  },
  {
    name: 'row_history',
    group: 'history',
    description: 'Previous versions of mirrored rows: one row per change or soft delete, written by a trigger in the same transaction.',
    columns: {
      id: 'Row id.',
      table_name: 'The mirrored table.',
      row_key: "The row's primary key as text (several key columns joined by '|').",
      raw: 'The previous version as received (JSON).',
      typed_row:
        "The previous version's own columns (not raw and the bookkeeping) as a JSON object by column name, read back typed by the v_*_history views; null for versions kept before migration 0039 and for the tables whose versions view lifts every column from raw (assets, market_stats, projects, sec_filings, token_unlock_assets, monitoring_events).",
      row_hash: 'Its hash.',
      first_seen_at: 'When the mirror first stored the record.',
      valid_from: 'When this version was written.',
      valid_to: 'When it was replaced or deleted.',
      change: "'updated' or 'deleted'.",
      run_id: 'The run in progress when this version was written.',
      ended_by_run_id: 'The run that replaced or deleted it.',
    },
  },
  {
    name: 'history_settings',
    group: 'history',
    description: 'History switch and retention per mirrored table; a table without a row keeps its versions for 90 days.',
    columns: {
      table_name: 'The mirrored table.',
      enabled: 'Whether its changes are kept.',
      retention_days: 'Versions that ended longer ago than this many days are pruned after each run; null keeps every version.',
    },
  },
  {
    name: 'kysely_migration',
    group: 'bookkeeping',
    description: 'Migrations applied (Kysely’s migrator).',
    columns: { name: 'Migration name.', timestamp: 'When it was applied.' },
  },
  {
    name: 'kysely_migration_lock',
    group: 'bookkeeping',
    description: 'The migrator’s lock against concurrent runs.',
    columns: { id: 'Lock id.', is_locked: 'Whether held.' },
  },
];
