// The writes the engine makes inside one page's transaction. Generic over the dialect: the adapter
// supplies value conversion and the bulk-upsert statement.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { mirrorTables, type Database, type MirrorTables } from './database.js';
import { rowKey } from './types.js';
import type { Row, RowsWrite, StoreAdapter, StoreTx, UpsertCounts } from './types.js';
import { conflictSql } from './rows-write.js';
import { quarantineJson } from './storable.js';

export class KyselyStoreTx implements StoreTx {
  /** The mirrored tables, named at run time. */
  private readonly tables: Kysely<MirrorTables>;

  /** `db`: the page's transaction, typed for the engine's own tables. */
  constructor(
    readonly db: Kysely<Database>,
    private readonly adapter: StoreAdapter,
  ) {
    this.tables = mirrorTables(db);
  }

  async upsertChanged(table: string, key: readonly string[], rows: readonly Row[], now: string, stream = table): Promise<UpsertCounts> {
    if (rows.length === 0) return { inserted: 0, updated: 0, unchanged: 0, rejected: 0 };
    const columns = Object.keys(rows[0]);
    const kept = lastOfEachKey(rows, key);
    // Plain loops: a first sync converts 1.4 million values here (scale 10), a closure call each with map.
    const { adapter } = this;
    const values: unknown[][] = new Array(kept.length);
    for (let r = 0; r < kept.length; r++) {
      const row = kept[r]!;
      const value: unknown[] = new Array(columns.length);
      for (let c = 0; c < columns.length; c++) value[c] = adapter.toDb(row[columns[c]!]);
      values[r] = value;
    }
    const { inserted, updated, rejected } = await this.adapter.upsertPage(this.db, { table, key, columns, rows: values, now });
    // The store refused these rows' values: quarantined with the reason, the rest of the page is written.
    for (const { index, reason } of rejected) await this.quarantine(stream, `${table}: ${reason}`, recordOf(kept[index]!), now);
    return { inserted, updated, unchanged: values.length - inserted - updated - rejected.length, rejected: rejected.length };
  }

  async replaceChildren(table: string, parent: Row, rows: readonly Row[]): Promise<number> {
    // A savepoint keeps the replacement atomic even if the caller catches the error and commits.
    await sql`savepoint replace_children`.execute(this.db);
    try {
      let remove = this.tables.deleteFrom(table);
      for (const [column, value] of Object.entries(parent)) remove = remove.where(column, '=', this.adapter.toDb(value));
      await remove.execute();
      const written = await this.insertRows(
        table,
        rows.map((row) => ({ ...row, ...parent })),
      );
      await sql`release savepoint replace_children`.execute(this.db);
      return written;
    } catch (err) {
      await sql`rollback to savepoint replace_children`.execute(this.db);
      await sql`release savepoint replace_children`.execute(this.db);
      throw err;
    }
  }

  insertIgnore(table: string, key: readonly string[], rows: readonly Row[]): Promise<number> {
    return this.insertRows(table, rows, { table, key, rows });
  }

  async writeRows(writes: readonly RowsWrite[]): Promise<number> {
    let counted = 0;
    for (const write of writes) {
      const written = await this.insertRows(write.table, write.rows, write);
      if (write.counted) counted += written;
    }
    return counted;
  }

  async saveCheckpoint(stream: string, checkpoint: unknown): Promise<void> {
    const row = { checkpoint: jsonOrNull(checkpoint), updated_at: new Date().toISOString() };
    await this.db
      .insertInto('stream_state')
      .values({ stream, ...row })
      .onConflict((oc) => oc.column('stream').doUpdateSet(row))
      .execute();
  }

  async quarantine(stream: string, reason: string, record: unknown, now: string): Promise<void> {
    await this.db
      .insertInto('quarantine')
      .values({ stream, reason, record: quarantineJson(record), seen_at: now })
      .execute();
  }

  /** Multi-row inserts chunked under the bind-parameter cap; with `onConflict`, a key held already is kept or updated as it says. */
  private async insertRows(table: string, rows: readonly Row[], onConflict?: RowsWrite): Promise<number> {
    if (rows.length === 0) return 0;
    const chunk = this.adapter.rowsPerStatement(Object.keys(rows[0]).length);
    let written = 0;
    for (let i = 0; i < rows.length; i += chunk) {
      const values = rows.slice(i, i + chunk).map((row) => this.toDbRow(row));
      let insert = this.tables.insertInto(table).values(values);
      if (onConflict) insert = insert.modifyEnd(sql.raw(conflictSql(onConflict)));
      const [result] = await insert.execute();
      written += Number(result?.numInsertedOrUpdatedRows ?? 0n);
    }
    return written;
  }

  private toDbRow(row: Row): Row {
    const out: Row = {};
    for (const [column, value] of Object.entries(row)) out[column] = this.adapter.toDb(value);
    return out;
  }
}

/**
 * One row per key, the last of duplicate keys winning (PostgreSQL's ON CONFLICT cannot touch one row twice),
 * at its first one's place. A page without duplicates (nearly every one) is returned as it is, unallocated.
 */
function lastOfEachKey(rows: readonly Row[], key: readonly string[]): readonly Row[] {
  const seen = new Set<string>();
  for (const row of rows) {
    const before = seen.size;
    seen.add(rowKey(row, key));
    if (seen.size === before) {
      const unique = new Map<string, Row>();
      for (const r of rows) unique.set(rowKey(r, key), r);
      return [...unique.values()];
    }
  }
  return rows;
}

/** JSON columns always hold JSON text, even when the value is a bare string. */
export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** The record as received (a row's `raw` JSON text), else the row itself. */
function recordOf(row: Row): unknown {
  if (typeof row.raw !== 'string') return row;
  try {
    return JSON.parse(row.raw);
  } catch {
    return row.raw;
  }
}
