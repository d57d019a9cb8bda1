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
 * PostgreSQL: one trigger per table and operation, once per statement, over the rows it wrote (its
 * transition tables): a page of a sync is one recomputation, not one per row. Writers of different
 * sources run at once (the `/v1` and monitoring lanes): a lock held to the end of the transaction makes
 * each see what the other committed, where each would otherwise miss the other's uncommitted rows (an
 * asset and the event asset it links, both new). Taken only when the statement changed what the
 * crosswalk reads, and late in the transaction, so writers wait little.
 */
function postgresTriggers(): string[] {
  const lock = `perform pg_advisory_xact_lock(hashtext(current_schema() || '.asset_crosswalk'))`;
  const trigger = (
    table: string,
    short: string,
    op: 'insert' | 'update' | 'delete',
    touched: string,
    statements: (ids: string) => string[],
  ) => {
    const name = `asset_crosswalk_${short}_${op}`;
    const tables = {
      insert: 'new table as new_rows',
      update: 'old table as old_rows new table as new_rows',
      delete: 'old table as old_rows',
    }[op];
    // Ids are read once: recomputing the keys changes which new event rows raise them.
    const ids = short !== 'assets';
    return [
      `create function ${name}() returns trigger language plpgsql as $$
${ids ? `declare\n  ids text[] := array(${touched});\n` : ''}begin
  if ${ids ? 'cardinality(ids) > 0' : `exists (${touched})`} then
    ${lock};
    ${statements(ids ? '(select unnest(ids))' : `(${touched})`).join(';\n    ')};
  end if;
  return null;
end $$`,
      `create trigger ${name} after ${op} on ${table} referencing ${tables} for each statement execute function ${name}()`,
    ];
  };
  // The rows of an update that changed what the crosswalk reads, as they were and as they are.
  const changedRows = (columns: readonly string[], key: string, pick: string) => {
    const differ = `(${columns.map((c) => `o.${c}`).join(', ')}) is distinct from (${columns.map((c) => `n.${c}`).join(', ')})`;
    return `select ${pick.replaceAll('$', 'o')} from old_rows o join new_rows n on ${key} where ${differ}
      union all select ${pick.replaceAll('$', 'n')} from old_rows o join new_rows n on ${key} where ${differ}`;
  };
  const assets = (rows: string) => `select r.slug, r.code, r.title from ${rows} r`;
  const meets = (keys: string) =>
    `(x.source_slug in (select k.slug from ${keys} k) or x.symbol_key in (select lower(k.code) from ${keys} k) or x.name_key in (select lower(k.title) from ${keys} k))`;
  const assetLinks = (keys: string) => [linksSql('postgres', meets(keys))];
  const unlocks = (ids: string) => [
    goneSql('token_unlocks', ids),
    sourceKeysSql('token_unlocks', `t.id in ${ids}`),
    linksSql('postgres', `x.source = 'token_unlocks' and x.source_asset_id in ${ids}`),
  ];
  const eventAssets = (ids: string) => [
    goneSql('monitoring', ids),
    sourceKeysSql('monitoring', `m.asset_id in ${ids}`),
    linksSql('postgres', `x.source = 'monitoring' and x.source_asset_id in ${ids}`),
  ];
  return [
    ...trigger('assets', 'assets', 'insert', assets('new_rows'), assetLinks),
    ...trigger('assets', 'assets', 'update', changedRows(ASSET_COLUMNS, 'n.id = o.id', '$.slug, $.code, $.title'), assetLinks),
    ...trigger('assets', 'assets', 'delete', assets('old_rows'), assetLinks),
    ...trigger('token_unlock_assets', 'unlocks', 'insert', 'select r.id from new_rows r', unlocks),
    ...trigger('token_unlock_assets', 'unlocks', 'update', changedRows(UNLOCK_COLUMNS, 'n.id = o.id', '$.id'), unlocks),
    ...trigger('token_unlock_assets', 'unlocks', 'delete', 'select r.id from old_rows r', unlocks),
    ...trigger(
      'monitoring_event_assets',
      'event_assets',
      'insert',
      `select r.asset_id from new_rows r where ${raisesKeys('r')}`,
      eventAssets,
    ),
    // Event assets are replaced, not updated: an update (none is made) recomputes every asset it names.
    ...trigger(
      'monitoring_event_assets',
      'event_assets',
      'update',
      'select r.asset_id from old_rows r union select r.asset_id from new_rows r',
      eventAssets,
    ),
    ...trigger('monitoring_event_assets', 'event_assets', 'delete', 'select r.asset_id from old_rows r', eventAssets),
  ];
}
