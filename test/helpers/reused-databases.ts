// A test process keeps the PostgreSQL databases its stores were cloned into and hands them out again,
// emptied, instead of cloning the template for every store and dropping the clone after: a clone costs the
// server about 0.1 CPU-s and its drop 0.05 (both scale with the template's ~580 relations), an emptying of
// the tables a test wrote a few ms. A database comes back only in its clone's state: each table the
// template holds no rows in is empty (a table someone wrote has pages: those are truncated), each table it
// holds rows in (the migration ledger, catalog_streams) holds exactly those, each sequence is where it was,
// and the schema is the same down to the catalog rows (fingerprint below). Anything else (the schema
// changed, seeded rows changed, a session still open after the test closed its stores) and the database is
// dropped, as before, and the next store gets a fresh clone.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { adminQuery, databaseUrl } from './store-templates.js';

/** What a fresh clone of the template looks like, read from the first clone this process makes. */
interface CloneState {
  fingerprint: string;
  /** Tables (schema-qualified) that hold rows in the template, each with a hash of its rows. */
  seeded: Map<string, string>;
  /** Sequences' pg_sequence_last_value (null: never called) and their start. */
  sequences: Map<string, { last: string | null; start: string }>;
  /** The clone's highest oid of a schema object: anything past it a test added. */
  lastOid: string;
  /** Each index's page and row counts (pg_class) as JSON rows: TRUNCATE sets them to 0 and -1, set back after. */
  indexStats: string;
}

/** The state of a database, read in one round trip; `dirty`: tables with pages whose template had none. */
interface ReadState extends CloneState {
  dirty: string[];
  /** Dirty materialized views: not truncated, so their database is dropped. */
  dirtyViews: string[];
}

/**
 * User objects: oids past the initial catalog's. The state is read only once no other session is connected
 * (`alone`), so no temporary object is left: those go with their session (only its schema, pg_temp_N, stays).
 */
const USER = (oid: string) => `${oid} >= 16384`;

/**
 * Every catalog row a schema change, a grant, a comment, ANALYZE or VACUUM writes, for the user's
 * objects, as one hash: a catalog row's xmin changes with each change of the row (and a dropped and
 * remade object has a new oid). pg_class is read by value without relfilenode, which TRUNCATE changes.
 */
const FINGERPRINT = `select md5(string_agg(line, E'\\n' order by line)) as fingerprint from (
  select 'n ' || oid || ' ' || xmin from pg_namespace where ${USER('oid')} and nspname not like 'pg\\_%temp\\_%'
  union all select 'c ' || oid || ' ' || concat_ws(' ', relname, relnamespace, relkind, relpersistence, relhasindex, relhastriggers,
    relrowsecurity, reloptions, relacl, reltoastrelid, relpages, reltuples, relallvisible)
    from pg_class where ${USER('oid')}
  union all select 'a ' || attrelid || ' ' || attnum || ' ' || xmin from pg_attribute where ${USER('attrelid')}
  union all select 'd ' || oid || ' ' || xmin from pg_attrdef where ${USER('oid')}
  union all select 'k ' || oid || ' ' || xmin from pg_constraint where ${USER('oid')}
  union all select 'i ' || indexrelid || ' ' || xmin from pg_index where ${USER('indexrelid')}
  union all select 't ' || oid || ' ' || xmin from pg_trigger where ${USER('oid')}
  union all select 'r ' || oid || ' ' || xmin from pg_rewrite where ${USER('oid')}
  union all select 'p ' || oid || ' ' || xmin from pg_proc where ${USER('oid')}
  union all select 'y ' || oid || ' ' || xmin from pg_type where ${USER('oid')}
  union all select 'q ' || seqrelid || ' ' || xmin from pg_sequence where ${USER('seqrelid')}
  union all select 'm ' || classoid || ' ' || objoid || ' ' || objsubid || ' ' || xmin from pg_description where ${USER('objoid')}
  union all select 's ' || starelid || ' ' || staattnum || ' ' || stainherit from pg_statistic where ${USER('starelid')}
  union all select 'x ' || oid || ' ' || xmin from pg_statistic_ext where ${USER('oid')}
  union all select 'e ' || oid || ' ' || xmin from pg_extension where ${USER('oid')}
  union all select 'l ' || oid from pg_largeobject_metadata
  union all select 'g ' || setrole || ' ' || setconfig::text from pg_db_role_setting
    where setdatabase = (select oid from pg_database where datname = current_database())
  union all select 'b ' || concat_ws(' ', datconnlimit, datallowconn, datistemplate, datacl) from pg_database where datname = current_database()
) lines (line)`;

/** Tables and materialized views with pages (a rolled-back insert leaves them too: emptied all the same). */
const WITH_PAGES = `select c.oid::regclass::text as name, c.relkind as kind from pg_class c
  where c.relkind in ('r', 'm') and ${USER('c.oid')} and pg_relation_size(c.oid) > 0`;

const SEQUENCES = `select seqrelid::regclass::text as name, pg_sequence_last_value(seqrelid)::text as last, seqstart::text as start
  from pg_sequence where ${USER('seqrelid')}`;

const INDEX_STATS = `select coalesce(json_agg(json_build_object('oid', oid, 'relpages', relpages, 'reltuples', reltuples,
  'relallvisible', relallvisible)), '[]')::text as stats from pg_class where relkind = 'i' and ${USER('oid')}`;

/**
 * An index's page and row counts as the clone had them: TRUNCATE leaves 0 and -1 where CREATE INDEX left 1
 * and 0, and the planner reads them for a partial index. A superuser's update of pg_class, as ANALYZE's own.
 */
const restoreIndexStats = (
  stats: string,
) => `update pg_class c set relpages = b.relpages, reltuples = b.reltuples, relallvisible = b.relallvisible
  from json_to_recordset('${stats.replaceAll("'", "''")}') as b(oid oid, relpages int, reltuples real, relallvisible int)
  where c.oid = b.oid and (c.relpages, c.reltuples, c.relallvisible) is distinct from (b.relpages, b.reltuples, b.relallvisible)`;

const LAST_OID = `select greatest((select max(oid) from pg_class), (select max(oid) from pg_proc), (select max(oid) from pg_namespace),
  (select max(oid) from pg_type), (select max(oid) from pg_trigger), (select max(oid) from pg_constraint))::text as oid`;

const rowsHash = (table: string) => `(select coalesce(md5(string_agg(r::text, E'\\n' order by r::text)), '') from ${table} r)`;

/** Idle databases of this process, cloned from the run's template, each in its clone's state. */
const idle: string[] = [];
let clone: CloneState | undefined;

/** DS_TEST_PG_FRESH=1: a fresh clone for every store, as before reuse (to compare, or to rule reuse out). */
export const reuse = process.env.DS_TEST_PG_FRESH !== '1';

/** A database in its clone's state: an idle one of this process, else a new clone. */
export async function takeDatabase(server: string, template: string, prefix: string): Promise<string> {
  const kept = reuse ? idle.pop() : undefined;
  if (kept) {
    counts.reused++;
    return kept;
  }
  const database = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `create database ${database} template ${template}`);
  counts.created++;
  if (reuse && !clone) clone = await withDatabase(server, database, (db) => readState(db, undefined));
  return database;
}

/** After the test closed its stores: the database emptied and kept for the next store, or dropped. */
export async function giveBack(server: string, database: string): Promise<void> {
  const kept = reuse && clone && (await withDatabase(server, database, (db) => reset(db, clone!)).catch(() => false));
  if (kept) {
    idle.push(database);
    return;
  }
  await forget(database);
  await adminQuery(server, `drop database if exists ${database} with (force)`);
  counts.dropped++;
}

/** This process's databases so far: cloned, handed out again, dropped (DS_TEST_CPU_LOG's per-file lines report them). */
export const counts = { created: 0, reused: 0, dropped: 0 };

/** Whether the database is back in its clone's state; false (nothing changed) where that cannot be done. */
export async function reset(db: pg.Client, want: CloneState): Promise<boolean> {
  if (!(await alone(db))) return false;
  let now = await readState(db, want);
  if (now.fingerprint !== want.fingerprint && (await dropAdded(db, want.lastOid))) now = await readState(db, want);
  if (now.fingerprint !== want.fingerprint || now.dirtyViews.length > 0) return false;
  for (const [table, hash] of want.seeded) if (now.seeded.get(table) !== hash) return false;
  const truncate = now.dirty.filter((table) => !want.seeded.has(table));
  const sequences = [...want.sequences].filter(([name, seq]) => now.sequences.get(name)?.last !== seq.last);
  if (truncate.length === 0 && sequences.length === 0) return true;
  // Replica role: no user trigger fires (none does on TRUNCATE today; one added later must not write elsewhere).
  // CASCADE: a table referencing a truncated one goes too, which is why a seeded table must not be among them.
  const statements = [
    'begin',
    'set local session_replication_role = replica',
    truncate.length > 0 ? `truncate ${truncate.join(', ')} cascade` : '',
    truncate.length > 0 ? restoreIndexStats(want.indexStats) : '',
    ...sequences.map(([name, seq]) => `select setval('${name}', ${seq.last ?? seq.start}, ${seq.last !== null})`),
  ].filter(Boolean);
  await db.query(`${statements.join(';\n')};\n${seeded(want)}\ncommit`).then((results) => {
    const hashes = (Array.isArray(results) ? results : [results]).at(-2);
    for (const row of hashes?.rows ?? []) if (want.seeded.get(row.name) !== row.hash) throw new Error(`seeded ${row.name} changed`);
  });
  return true;
}

/**
 * Drops what a test added to the clone (its own tables, views, indexes, triggers, functions, schemas: oids
 * past the clone's last), so that a test that made a table of its own leaves a database the next can use;
 * whether the schema is then the clone's again, the fingerprint says. Returns whether it dropped anything.
 */
async function dropAdded(db: pg.Client, lastOid: string): Promise<boolean> {
  const { rows } = await db.query<{ drop: string }>(ADDED, [lastOid]);
  if (rows.length === 0) return false;
  await db.query(`begin;\n${rows.map((r) => `${r.drop};`).join('\n')}\ncommit`);
  return true;
}

const NOT_TEMP = "not in (select oid from pg_namespace where nspname like 'pg\\_temp\\_%' or nspname like 'pg\\_toast\\_temp\\_%')";

/**
 * A `drop` for each object added past an oid, outer ones first (a schema, then its tables, then indexes and
 * triggers added to the clone's tables: those of an added table go with it).
 */
const ADDED = `select drop from (
  select 1 as o, format('drop schema if exists %I cascade', nspname) as drop from pg_namespace
    where oid > $1::oid and nspname not like 'pg\\_%'
  union all select 2, format('drop %s if exists %s cascade',
      case relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence' when 'f' then 'foreign table'
        else 'table' end, oid::regclass)
    from pg_class where oid > $1::oid and relkind in ('r', 'p', 'v', 'm', 'S', 'f') and relnamespace ${NOT_TEMP}
      and relnamespace <> 'pg_toast'::regnamespace
  union all select 3, format('drop index if exists %s', indexrelid::regclass) from pg_index
    where indexrelid > $1::oid and indrelid <= $1::oid and not exists (select from pg_constraint where conindid = indexrelid)
  union all select 4, format('drop trigger if exists %I on %s', tgname, tgrelid::regclass) from pg_trigger
    where oid > $1::oid and tgrelid <= $1::oid and not tgisinternal
  union all select 5, format('drop function if exists %s cascade', oid::regprocedure) from pg_proc
    where oid > $1::oid and pronamespace ${NOT_TEMP}
) added order by o`;

/** The seeded tables' hashes, one row each (checked after a cascade). */
function seeded(want: CloneState): string {
  const tables = [...want.seeded.keys()];
  if (tables.length === 0) return 'select null as name, null as hash where false;';
  return `${tables.map((t) => `select '${t}' as name, ${rowsHash(t)} as hash`).join(' union all ')};`;
}

/** No other session on the database: one still open (a test's store, a child process) may write again. */
async function alone(db: pg.Client): Promise<boolean> {
  // A client's end() returns once the socket closes; its backend may take a moment more to leave.
  for (let attempt = 0; attempt < 20; attempt++) {
    const { rows } = await db.query(
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    if (rows[0].n === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** The database's state; `want` names the seeded tables (none yet: the first clone, read to be `want`). */
export async function readState(db: pg.Client, want: CloneState | undefined): Promise<ReadState> {
  const results = (await db.query(
    `${FINGERPRINT};\n${WITH_PAGES};\n${SEQUENCES};\n${LAST_OID};\n${INDEX_STATS}`,
  )) as unknown as pg.QueryResult[];
  const [fp, pages, seqs, last, indexes] = results;
  const withPages = pages!.rows as { name: string; kind: string }[];
  const seededNames = want ? [...want.seeded.keys()] : withPages.filter((r) => r.kind === 'r').map((r) => r.name);
  const hashes =
    seededNames.length > 0 ? (await db.query(seeded({ seeded: new Map(seededNames.map((n) => [n, ''])) } as CloneState))).rows : [];
  return {
    fingerprint: fp!.rows[0].fingerprint,
    seeded: new Map(hashes.map((r) => [r.name as string, r.hash as string])),
    sequences: new Map(seqs!.rows.map((r) => [r.name as string, { last: r.last as string | null, start: r.start as string }])),
    lastOid: String(last!.rows[0].oid),
    indexStats: String(indexes!.rows[0].stats),
    dirty: withPages.filter((r) => r.kind === 'r').map((r) => r.name),
    dirtyViews: withPages.filter((r) => r.kind === 'm').map((r) => r.name),
  };
}

/**
 * A connection to each database of this process, kept from one reset to the next (while the database is
 * idle and while a test uses it): a new one for each reset cost the server a backend's start (about 11 ms)
 * and the catalog reads of the state's queries on a cold backend. Not counted by `alone` (its own pid), and
 * ended before its database is dropped; one that errs is ended and forgotten, and the next reset opens another.
 */
const kept = new Map<string, Promise<pg.Client>>();

async function withDatabase<T>(server: string, database: string, fn: (db: pg.Client) => Promise<T>): Promise<T> {
  let client = kept.get(database);
  if (!client) {
    client = connectKept(server, database);
    kept.set(database, client);
  }
  try {
    return await fn(await client);
  } catch (err) {
    await forget(database);
    throw err;
  }
}

function connectKept(server: string, database: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl(server, database) });
  // An idle connection's 'error' (its backend terminated, the server gone) must not end the test process.
  client.on('error', () => void forget(database));
  return client.connect().then(() => {
    // Kept for the process's life without keeping the process alive.
    (client as unknown as { connection: { stream: { unref?(): void } } }).connection.stream.unref?.();
    return client;
  });
}

async function forget(database: string): Promise<void> {
  const client = kept.get(database);
  kept.delete(database);
  await client?.then((c) => c.end()).catch(() => {});
}
