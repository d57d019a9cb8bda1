// The asset crosswalk (v_asset_crosswalk) becomes a table kept current by triggers, in the transaction
// of every write to its sources: computed by the view, it took 0.4 s at scale 10 on SQLite for each
// page or count, where a dashboard's budget is 0.2 s. A row per token-unlock and monitoring asset holds
// its keys (the greatest slug, symbol and name its rows give, lowered where a match is
// case-insensitive) and its best link to a live `/v1` asset: exact slug, then symbol and name
// together, then name alone, then symbol alone; several assets tied at the best method share the
// confidence, and the tie goes to the best market cap rank.
// A change to a source asset recomputes its keys, then its link; a change to a `/v1` asset's slug,
// code, title, rank or liveness recomputes the links of the sources whose keys meet its old or new
// ones (found through indexes on the stored keys). SQLite allows no WITH in a trigger, so the SQL
// below has none.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('asset_crosswalk')
    .addColumn('source', t.text, (c) => c.notNull())
    .addColumn('source_asset_id', t.text, (c) => c.notNull())
    .addColumn('source_slug', t.text)
    .addColumn('source_symbol', t.text)
    .addColumn('source_name', t.text)
    .addColumn('symbol_key', t.text)
    .addColumn('name_key', t.text)
    .addColumn('v1_asset_id', t.bigint)
    .addColumn('match_method', t.text)
    .addColumn('confidence', t.double)
    .addColumn('candidates', t.bigint)
    .addPrimaryKeyConstraint('asset_crosswalk_key', ['source', 'source_asset_id'])
    .execute();
  for (const column of ['source_slug', 'symbol_key', 'name_key', 'v1_asset_id'])
    await db.schema.createIndex(`asset_crosswalk_${column}`).on('asset_crosswalk').column(column).execute();
  // What a PostgreSQL transaction touched, recomputed at its commit (postgresTriggers); empty otherwise.
  await db.schema
    .createTable('asset_crosswalk_pending')
    .addColumn('txid', t.bigint, (c) => c.notNull())
    .addColumn('kind', t.text, (c) => c.notNull())
    .addColumn('source_asset_id', t.text)
    .addColumn('slug', t.text)
    .addColumn('code', t.text)
    .addColumn('title', t.text)
    .execute();
  await db.schema.createIndex('asset_crosswalk_pending_txid').on('asset_crosswalk_pending').column('txid').execute();

  await refillCrosswalk(db, dialect);
  for (const statement of dialect === 'sqlite' ? sqliteTriggers() : postgresTriggers()) await sql.raw(statement).execute(db);
}

/** Every row computed afresh from the sources (a test compares this with what the triggers kept). */
export async function refillCrosswalk(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await sql`delete from asset_crosswalk`.execute(db);
  for (const statement of [sourceKeysSql('token_unlocks', 'true'), sourceKeysSql('monitoring', 'true'), linksSql(dialect, 'true')])
    await sql.raw(statement).execute(db);
}

const KEY_COLUMNS = ['source_slug', 'source_symbol', 'source_name', 'symbol_key', 'name_key'];
const LINK_COLUMNS = ['v1_asset_id', 'match_method', 'confidence', 'candidates'];
const upsert = (columns: readonly string[]) =>
  `on conflict (source, source_asset_id) do update set ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;

/** The keys of the sources that `where` selects (over token_unlock_assets t, or monitoring_event_assets m), written. */
function sourceKeysSql(source: 'token_unlocks' | 'monitoring', where: string): string {
  const columns = `insert into asset_crosswalk (source, source_asset_id, ${KEY_COLUMNS.join(', ')})`;
  if (source === 'token_unlocks') {
    return `${columns}
select 'token_unlocks', t.id, t.slug, t.symbol, t.name, lower(t.symbol), lower(t.name) from token_unlock_assets t
where t.deleted_at is null and ${where}
${upsert(KEY_COLUMNS)}`;
  }
  return `${columns}
select 'monitoring', m.asset_id, max(m.slug), max(m.symbol), max(m.name), lower(max(m.symbol)), lower(max(m.name)) from monitoring_event_assets m
where ${where} group by m.asset_id
${upsert(KEY_COLUMNS)}`;
}

/** The links of the crosswalk rows that `where` selects (over asset_crosswalk x), recomputed from their stored keys. */
function linksSql(dialect: Dialect, where: string): string {
  const dbl = dialect === 'postgres' ? 'double precision' : 'real';
  // The keys lowered again: an expression has no affinity, so SQLite may compare it through the indexes
  // on lower(code) and lower(title) (a TEXT column it would not).
  const sources = `(select x.source, x.source_asset_id, x.source_slug, lower(x.symbol_key) as symbol_key, lower(x.name_key) as name_key
    from asset_crosswalk x where ${where})`;
  // Each method looks its sources up in the live assets through an index (slug, lower(code), lower(title)).
  const method = (name: string, confidence: number, on: string) =>
    `select s.source, s.source_asset_id, a.id as v1_asset_id, '${name}' as match_method, cast(${confidence} as ${dbl}) as base_confidence, a.market_cap_rank
  from ${sources} s cross join assets a where a.deleted_at is null and ${on}`;
  const candidates = [
    method('slug', 0.95, 'a.slug = s.source_slug'),
    method('symbol_and_name', 0.9, 'lower(a.code) = s.symbol_key and lower(a.title) = s.name_key'),
    method('name', 0.6, 'lower(a.title) = s.name_key'),
    method('symbol', 0.4, 'lower(a.code) = s.symbol_key'),
  ].join('\n  union all\n  ');
  return `insert into asset_crosswalk (source, source_asset_id, ${LINK_COLUMNS.join(', ')})
select s.source, s.source_asset_id, r.v1_asset_id, r.match_method, r.base_confidence / r.ties, r.ties
from ${sources} s left join (
  select b.*, count(*) over (partition by b.source, b.source_asset_id) as ties,
    row_number() over (partition by b.source, b.source_asset_id order by b.market_cap_rank is null, b.market_cap_rank, b.v1_asset_id) as n
  from (
    select c.*, max(c.base_confidence) over (partition by c.source, c.source_asset_id) as top from (
  ${candidates}
    ) c
  ) b where b.base_confidence = b.top
) r on r.source = s.source and r.source_asset_id = s.source_asset_id and r.n = 1
where true
${upsert(LINK_COLUMNS)}`;
}

/** Sources gone (no live token-unlock asset, no event naming the monitoring asset) leave the crosswalk; `ids` follows `in`. */
function goneSql(source: 'token_unlocks' | 'monitoring', ids: string): string {
  const rest =
    source === 'token_unlocks'
      ? 'select 1 from token_unlock_assets t where t.id = asset_crosswalk.source_asset_id and t.deleted_at is null'
      : 'select 1 from monitoring_event_assets m where m.asset_id = asset_crosswalk.source_asset_id';
  return `delete from asset_crosswalk where source = '${source}' and source_asset_id in ${ids} and not exists (${rest})`;
}

/** The sources one `/v1` asset (old or new) may link: those whose keys meet its slug, code or title. */
function meetsAsset(rows: readonly string[]): string {
  const list = (f: (r: string) => string) => rows.map(f).join(', ');
  return `(x.source_slug in (${list((r) => `${r}.slug`)}) or x.symbol_key in (${list((r) => `lower(${r}.code)`)}) or x.name_key in (${list((r) => `lower(${r}.title)`)}))`;
}
const isSource = (source: string, id: string) => `x.source = '${source}' and x.source_asset_id = ${id}`;
const changed = (columns: readonly string[]) => columns.map((c) => `old.${c} is not new.${c}`).join(' or ');

// What the crosswalk reads of each table: a write that changes none of it changes no link.
const ASSET_COLUMNS = ['slug', 'code', 'title', 'market_cap_rank', 'deleted_at'];
const UNLOCK_COLUMNS = ['id', 'slug', 'symbol', 'name', 'deleted_at'];
const EVENT_ASSET_COLUMNS = ['asset_id', 'slug', 'symbol', 'name'];

/**
 * A new event row that cannot raise the asset's greatest slug, symbol or name changes nothing: events
 * name the same assets over and over, and recomputing the keys would read all of the asset's rows.
 */
const raisesKeys = (
  r: string,
) => `not exists (select 1 from asset_crosswalk x where x.source = 'monitoring' and x.source_asset_id = ${r}.asset_id
  and (${r}.slug is null or ${r}.slug <= x.source_slug) and (${r}.symbol is null or ${r}.symbol <= x.source_symbol)
  and (${r}.name is null or ${r}.name <= x.source_name))`;

function sqliteTriggers(): string[] {
  const trigger = (name: string, event: string, table: string, when: string | null, statements: readonly string[]) =>
    `create trigger ${name} after ${event} on ${table} for each row${when ? `\n  when ${when}` : ''}
begin
  ${statements.join(';\n  ')};
end`;
  return [
    trigger('asset_crosswalk_assets_insert', 'insert', 'assets', null, [linksSql('sqlite', meetsAsset(['new']))]),
    trigger('asset_crosswalk_assets_update', 'update', 'assets', changed(ASSET_COLUMNS), [linksSql('sqlite', meetsAsset(['old', 'new']))]),
    trigger('asset_crosswalk_assets_delete', 'delete', 'assets', null, [linksSql('sqlite', meetsAsset(['old']))]),
    trigger('asset_crosswalk_unlocks_insert', 'insert', 'token_unlock_assets', null, [
      sourceKeysSql('token_unlocks', 't.id = new.id'),
      linksSql('sqlite', isSource('token_unlocks', 'new.id')),
    ]),
    trigger('asset_crosswalk_unlocks_update', 'update', 'token_unlock_assets', changed(UNLOCK_COLUMNS), [
      goneSql('token_unlocks', '(old.id)'),
      sourceKeysSql('token_unlocks', 't.id = new.id'),
      linksSql('sqlite', isSource('token_unlocks', 'new.id')),
    ]),
    trigger('asset_crosswalk_unlocks_delete', 'delete', 'token_unlock_assets', null, [goneSql('token_unlocks', '(old.id)')]),
    trigger('asset_crosswalk_event_assets_insert', 'insert', 'monitoring_event_assets', raisesKeys('new'), [
      sourceKeysSql('monitoring', 'm.asset_id = new.asset_id'),
      linksSql('sqlite', isSource('monitoring', 'new.asset_id')),
    ]),
    trigger('asset_crosswalk_event_assets_update', 'update', 'monitoring_event_assets', changed(EVENT_ASSET_COLUMNS), [
      goneSql('monitoring', '(old.asset_id)'),
      sourceKeysSql('monitoring', 'm.asset_id in (old.asset_id, new.asset_id)'),
      linksSql('sqlite', `x.source = 'monitoring' and x.source_asset_id in (old.asset_id, new.asset_id)`),
    ]),
    trigger('asset_crosswalk_event_assets_delete', 'delete', 'monitoring_event_assets', null, [
      goneSql('monitoring', '(old.asset_id)'),
      sourceKeysSql('monitoring', 'm.asset_id = old.asset_id'),
      linksSql('sqlite', isSource('monitoring', 'old.asset_id')),
    ]),
  ];
}

/**
 * PostgreSQL runs writers of different sources at once (the `/v1` and monitoring lanes), and neither
 * sees the other's uncommitted rows: each would miss an asset and the event asset it links, both new.
 * So each statement only notes what it touched (from its transition tables, in
 * asset_crosswalk_pending), and at commit a deferred trigger takes one lock, recomputes what this
 * transaction touched, and commits: the lock is held for that alone, and whoever recomputes second
 * sees what the first committed.
 */
function postgresTriggers(): string[] {
  const pending = (op: 'insert' | 'update' | 'delete', table: string, short: string, rows: string) => {
    const name = `asset_crosswalk_${short}_${op}`;
    const tables = {
      insert: 'new table as new_rows',
      update: 'old table as old_rows new table as new_rows',
      delete: 'old table as old_rows',
    }[op];
    return [
      `create function ${name}() returns trigger language plpgsql as $$
begin
  insert into asset_crosswalk_pending (txid, kind, source_asset_id, slug, code, title) select txid_current(), p.* from (${rows}) p;
  return null;
end $$`,
      `create trigger ${name} after ${op} on ${table} referencing ${tables} for each statement execute function ${name}()`,
    ];
  };
  const changed = `(${ASSET_COLUMNS.map((c) => `o.${c}`).join(', ')}) is distinct from (${ASSET_COLUMNS.map((c) => `n.${c}`).join(', ')})`;
  const assetRows = (r: string) => `select 'asset', null, r.slug, r.code, r.title from ${r} r`;
  const both = (f: (r: string) => string) => `${f('old_rows')} union all ${f('new_rows')}`;
  const mine = (kind: string, column: string) =>
    `(select p.${column} from asset_crosswalk_pending p where p.kind = '${kind}' and p.txid = txid_current())`;
  const ids = (kind: string) => mine(kind, 'source_asset_id');
  const assetKeys = (column: string, f: (c: string) => string = (c) => c) =>
    `(select ${f(`p.${column}`)} from asset_crosswalk_pending p where p.kind = 'asset' and p.txid = txid_current())`;
  const flush = [
    `perform pg_advisory_xact_lock(hashtext(current_schema() || '.asset_crosswalk'))`,
    goneSql('token_unlocks', ids('token_unlocks')),
    sourceKeysSql('token_unlocks', `t.id in ${ids('token_unlocks')}`),
    goneSql('monitoring', ids('monitoring')),
    sourceKeysSql('monitoring', `m.asset_id in ${ids('monitoring')}`),
    // The sources to relink, gathered first: an OR of IN lists inside the recomputation misled the planner (8 s).
    ...(['token_unlocks', 'monitoring'] as const).map(
      (source) => `${source === 'token_unlocks' ? 'unlocks' : 'monitored'} := array(select x.source_asset_id from asset_crosswalk x
      where x.source = '${source}' and (x.source_asset_id in ${ids(source)} or x.source_slug in ${assetKeys('slug')}
        or x.symbol_key in ${assetKeys('code', (c) => `lower(${c})`)} or x.name_key in ${assetKeys('title', (c) => `lower(${c})`)}))`,
    ),
    linksSql(
      'postgres',
      `(x.source = 'token_unlocks' and x.source_asset_id = any(unlocks)) or (x.source = 'monitoring' and x.source_asset_id = any(monitored))`,
    ),
    'delete from asset_crosswalk_pending where txid = txid_current()',
  ];
  return [
    ...pending('insert', 'assets', 'assets', assetRows('new_rows')),
    ...pending(
      'update',
      'assets',
      'assets',
      `select 'asset', null, r.slug, r.code, r.title from (
    select o.slug, o.code, o.title from old_rows o join new_rows n on n.id = o.id where ${changed}
    union all select n.slug, n.code, n.title from old_rows o join new_rows n on n.id = o.id where ${changed}) r`,
    ),
    ...pending('delete', 'assets', 'assets', assetRows('old_rows')),
    ...pending('insert', 'token_unlock_assets', 'unlocks', `select 'token_unlocks', r.id, null, null, null from new_rows r`),
    ...pending(
      'update',
      'token_unlock_assets',
      'unlocks',
      both((r) => `select 'token_unlocks', r.id, null, null, null from ${r} r`),
    ),
    ...pending('delete', 'token_unlock_assets', 'unlocks', `select 'token_unlocks', r.id, null, null, null from old_rows r`),
    ...pending(
      'insert',
      'monitoring_event_assets',
      'event_assets',
      `select distinct 'monitoring', r.asset_id, null, null, null from new_rows r`,
    ),
    ...pending(
      'update',
      'monitoring_event_assets',
      'event_assets',
      both((r) => `select 'monitoring', r.asset_id, null, null, null from ${r} r`),
    ),
    ...pending(
      'delete',
      'monitoring_event_assets',
      'event_assets',
      `select distinct 'monitoring', r.asset_id, null, null, null from old_rows r`,
    ),
    // Once per noted row, at commit: the first recomputes everything this transaction noted, the rest find nothing.
    `create function asset_crosswalk_flush() returns trigger language plpgsql as $$
declare
  unlocks text[];
  monitored text[];
begin
  if exists (select 1 from asset_crosswalk_pending p where p.txid = txid_current()) then
    ${flush.join(';\n    ')};
  end if;
  return null;
end $$`,
    `create constraint trigger asset_crosswalk_flush after insert on asset_crosswalk_pending deferrable initially deferred
  for each row execute function asset_crosswalk_flush()`,
  ];
}
