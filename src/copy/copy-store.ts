// Moves a whole mirror from one store to another (SQLite → PostgreSQL when a user outgrows a file, or
// back): every table but the migration records and leases, in key order, a batch per transaction,
// values converted between dialects, ids kept (PostgreSQL sequences moved past them); then every
// row is compared with its source, so a finished copy is known to be complete. The tables the
// target's triggers keep (alert_days, the crosswalk) are not written: the triggers fill them from the
// copied rows, and the comparison then checks them like any other table.
import { sql } from 'kysely';
import { DsMirrorError } from '../errors.js';
import { columnKinds } from './copy-values.js';
import { readInKeyOrder } from './key-order-reader.js';
import { KEPT_BY_TRIGGERS, listTables, parentsFirst, WRITTEN_AT_MIGRATE } from '../store/store-tables.js';
import { verifyTable, type TablePair } from './verify-copy.js';
import type { Row, Store } from '../store/types.js';

export interface CopyProgress {
  table: string;
  phase: 'copy' | 'verify';
  done: number;
  total: number;
}

export interface CopyOptions {
  /** Empty the target's mirror tables first instead of refusing a target that holds rows. */
  force?: boolean;
  /** Rows read, and written in one transaction, at a time (default 2000). */
  batchRows?: number;
  onProgress?: (progress: CopyProgress) => void;
  /** Verify by matching rows on their key in memory; automatic for tables whose keys the two stores order differently. */
  byKey?: boolean;
}

export interface TableReport {
  table: string;
  rows: number;
  verified: boolean;
  mismatch: string | null;
}

export interface CopyResult {
  tables: TableReport[];
  rows: number;
  /** The first difference found by the verification, null when every table matches row for row. */
  mismatch: string | null;
}

export class CopyTargetNotEmptyError extends DsMirrorError {
  constructor(readonly tables: readonly string[]) {
    const named = tables.slice(0, 3).join(', ') + (tables.length > 3 ? `, and ${tables.length - 3} more` : '');
    super(
      'DS_COPY_TARGET_NOT_EMPTY',
      `the target already holds mirrored rows (${named}); copy into an empty database or schema, or add --force to replace them`,
    );
  }
}

const DEFAULT_BATCH_ROWS = 2000; // wide rows (assets: ~3 KB each) keep a batch to a few MB

export async function copyStore(from: Store, to: Store, opts: CopyOptions = {}): Promise<CopyResult> {
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  const pairs = await pairTables(from, to);
  const filled = (await tablesWithRows(to, pairs)).filter((name) => !WRITTEN_AT_MIGRATE.has(name));
  if (filled.length > 0 && !opts.force) throw new CopyTargetNotEmptyError(filled);
  // What the target's own migration wrote (the stream catalog) gives way to the source's rows.
  await emptyTables(to, filled.length > 0 ? pairs : pairs.filter((p) => WRITTEN_AT_MIGRATE.has(p.target.name)));

  for (const pair of pairs.filter((p) => !KEPT_BY_TRIGGERS.has(p.source.name))) await copyTable(from, to, pair, batchRows, opts.onProgress);
  // The kept tables are filled by now: their rows are the target's own.
  for (const { source } of pairs.filter((p) => KEPT_BY_TRIGGERS.has(p.source.name)))
    opts.onProgress?.({
      table: source.name,
      phase: 'copy',
      done: await countRows(to, source.name),
      total: await countRows(from, source.name),
    });
  await moveSequences(to, pairs);
  await to.adapter.analyzeTables?.(pairs.map((p) => p.target.name));
  return verifyPairs(from, to, pairs, { ...opts, batchRows });
}

/** Compares every mirror table of two stores row for row, without copying. */
export async function verifyStores(from: Store, to: Store, opts: Omit<CopyOptions, 'force'> = {}): Promise<CopyResult> {
  return verifyPairs(from, to, await pairTables(from, to), { ...opts, batchRows: opts.batchRows ?? DEFAULT_BATCH_ROWS });
}

/** Source tables with their target twins, parents first; the column sets must match. */
async function pairTables(from: Store, to: Store): Promise<TablePair[]> {
  const [sources, targets] = await Promise.all([listTables(from), listTables(to)]);
  const byName = new Map(targets.map((t) => [t.name, t]));
  return parentsFirst(sources).map((source) => {
    const target = byName.get(source.name);
    const names = (t: typeof source) =>
      t.columns
        .map((c) => c.name)
        .sort()
        .join(', ');
    if (!target || names(target) !== names(source)) {
      const why = target ? `columns (${names(source)}) in the source but (${names(target)}) in the target` : 'no such table in the target';
      throw new DsMirrorError(
        'DS_COPY_SCHEMA',
        `cannot copy table ${source.name}: ${why}; run the same ds-mirror version on both (each is migrated on open)`,
      );
    }
    return { source, target, kinds: columnKinds(source, from.adapter, target, to.adapter) };
  });
}

async function tablesWithRows(store: Store, pairs: readonly TablePair[]): Promise<string[]> {
  const filled: string[] = [];
  for (const { target } of pairs) {
    const row = await store.db.selectFrom(target.name).select(sql`1`.as('one')).limit(1).executeTakeFirst();
    if (row) filled.push(target.name);
  }
  return filled;
}

/** Children first, so no foreign key points at a deleted row. */
async function emptyTables(store: Store, pairs: readonly TablePair[]): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    for (const { target } of [...pairs].reverse()) await trx.deleteFrom(target.name).execute();
  });
}

async function copyTable(
  from: Store,
  to: Store,
  pair: TablePair,
  batchRows: number,
  onProgress?: CopyOptions['onProgress'],
): Promise<void> {
  const table = pair.source.name;
  const columns = pair.source.columns.map((c) => c.name);
  const convert = columns.map((c) => to.adapter.toColumn(pair.kinds.get(c) ?? 'other'));
  const perInsert = to.adapter.rowsPerStatement(columns.length);
  const total = await countRows(from, table);
  let done = 0;
  onProgress?.({ table, phase: 'copy', done, total });
  let pending: Promise<void> = Promise.resolve();
  for await (const batch of readInKeyOrder(from, pair.source, batchRows)) {
    const rows = batch.map((row) => {
      const out: Row = {};
      columns.forEach((c, i) => (out[c] = convert[i](row[c])));
      return out;
    });
    // Write this batch while the next one is read; one transaction per batch.
    await pending;
    pending = to.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += perInsert)
        await trx
          .insertInto(table)
          .values(rows.slice(i, i + perInsert))
          .execute();
    });
    pending.catch(() => {}); // awaited below or on the next batch
    done += rows.length;
    onProgress?.({ table, phase: 'copy', done, total });
  }
  await pending;
}

/** PostgreSQL serial columns: the next id follows the largest copied one. */
async function moveSequences(store: Store, pairs: readonly TablePair[]): Promise<void> {
  for (const { target } of pairs) {
    for (const column of target.columns.filter((c) => c.sequence)) {
      await sql`select setval(${column.sequence}::regclass,
        coalesce((select max(${sql.ref(column.name)}) from ${sql.table(target.name)}), 0) + 1, false)`.execute(store.db);
    }
  }
}

async function verifyPairs(
  from: Store,
  to: Store,
  pairs: readonly TablePair[],
  { batchRows, byKey, onProgress }: Omit<CopyOptions, 'force'> & { batchRows: number },
): Promise<CopyResult> {
  const tables: TableReport[] = [];
  let mismatch: string | null = null;
  for (const pair of pairs) {
    const table = pair.source.name;
    const total = await countRows(from, table);
    onProgress?.({ table, phase: 'verify', done: 0, total });
    const check = await verifyTable(from, to, pair, {
      batchRows,
      byKey,
      onRows: (done) => onProgress?.({ table, phase: 'verify', done, total }),
    });
    onProgress?.({ table, phase: 'verify', done: check.sourceRows, total });
    const counts =
      check.sourceRows === check.targetRows ? null : `${table}: ${check.sourceRows} rows in the source, ${check.targetRows} in the target`;
    const first = check.mismatch ?? counts;
    tables.push({ table, rows: check.sourceRows, verified: first === null, mismatch: first });
    mismatch ??= first;
  }
  return { tables, rows: tables.reduce((n, t) => n + t.rows, 0), mismatch };
}

/** Leases live on a store (a sync or receiver at work): its rows may change while they are copied. */
export async function liveLeases(store: Store): Promise<string[]> {
  return (await store.liveLeases()).map((l) => `${l.name} (held by ${l.owner} until ${l.expiresAt})`);
}

async function countRows(store: Store, table: string): Promise<number> {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
