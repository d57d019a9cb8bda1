// A page of upserts on PostgreSQL: one statement per page (upsert-sql.ts), prepared once per connection.
// Values are checked against the columns' types first (postgres-value-checks.ts), keys already held unchanged are
// left out, and a statement that fails anyway is retried row by row so one bad row cannot fail a page.
import { CompiledQuery, type Kysely } from 'kysely';
import { rowChanged, type StoredVersion } from '../changed-row.js';
import type { Database } from '../database.js';
import { isPostgresRecordError } from './postgres-errors.js';
import { quoteIdent } from '../store-adapter.js';
import { keyString, type RejectedRow, type UpsertPage } from '../types.js';
import { valueCheck, type ValueCheck } from './postgres-value-checks.js';
import { PREPARED } from './prepared-pool.js';
import { heldRowsQuery, upsertStatement, type UpsertStatement } from './postgres-upsert-sql.js';

const ROWS_PER_STATEMENT = 10_000; // bounds the size of one statement's arrays
const PREFILTER_MIN_ROWS = 10; // below it, one statement costs less than a look-up and a statement

type Counts = { inserted: number; updated: number; rejected: RejectedRow[] };

/** Per table and column list, built once (not per page): column types, value checks, statement text. */
export class PostgresUpserter {
  private readonly tableTypes = new Map<string, Map<string, string>>();
  private readonly checks = new Map<string, (ValueCheck | null)[]>();
  private readonly statements = new Map<string, UpsertStatement>();
  /** Tables whose last page was all new rows (a first sync): the next page skips the look-up of held ones. */
  private readonly allNew = new Set<string>();

  async upsertPage(trx: Kysely<Database>, page: UpsertPage): Promise<Counts> {
    const types = await this.typesOf(trx, page.table, page.columns);
    const rejected: RejectedRow[] = [];
    const fit = this.fitting(page, types, rejected);
    // The look-up is safe without a savepoint (keys were checked above); an unchanged page ends here. While
    // a table's pages come all new it finds nothing, so it is skipped: the statement itself writes only changes.
    const rows = this.allNew.has(page.table) ? fit : await withoutUnchanged(trx, { ...page, rows: fit }, types);
    if (rows.length === 0) return { inserted: 0, updated: 0, rejected };
    const statement = this.statement(page, types);
    const counts = await this.write(trx, statement, page, rows, rejected);
    if (counts.inserted === page.rows.length) this.allNew.add(page.table);
    else this.allNew.delete(page.table);
    return counts;
  }

  private async write(
    trx: Kysely<Database>,
    statement: UpsertStatement,
    page: UpsertPage,
    rows: readonly unknown[][],
    rejected: RejectedRow[],
  ) {
    // One savepoint per page with writes, never per row, and not released (the commit does): a failure
    // rolls back to it and the page is retried row by row, so one bad row cannot fail the page.
    await trx.executeQuery(CompiledQuery.raw('savepoint upsert_page'));
    try {
      let inserted = 0;
      let updated = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const counts = await upsertChunk(trx, statement, page.now, rows.slice(i, i + ROWS_PER_STATEMENT));
        inserted += counts.inserted;
        updated += counts.updated;
      }
      return { inserted, updated, rejected };
    } catch (err) {
      await trx.executeQuery(CompiledQuery.raw('rollback to savepoint upsert_page'));
      if (!isPostgresRecordError(err)) throw err;
      return upsertRowByRow(trx, statement, page, rows, rejected);
    }
  }

  private async typesOf(trx: Kysely<Database>, table: string, columns: readonly string[]): Promise<string[]> {
    let types = this.tableTypes.get(table);
    if (!types || columns.some((c) => !types!.has(c))) {
      const { rows } = await trx.executeQuery<{ name: string; type: string }>(
        CompiledQuery.raw(
          'select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute ' +
            'where attrelid = to_regclass($1) and attnum > 0 and not attisdropped',
          [quoteIdent(table)],
        ),
      );
      types = new Map(rows.map((r) => [r.name, r.type]));
      this.tableTypes.set(table, types);
    }
    return columns.map((c) => {
      const type = types!.get(c);
      if (!type) throw new Error(`upsert into ${table}: no column "${c}" in the table (is a migration missing?)`);
      // Lists are stored as t.json: a row's values travel as JSON, which has no PostgreSQL array literal.
      if (type.endsWith('[]')) throw new Error(`upsert into ${table}: column "${c}" is ${type}; store lists as t.json`);
      return type;
    });
  }

  /** The rows whose values certainly fit their columns; the others are rejected with the reason. */
  private fitting(page: UpsertPage, types: string[], rejected: RejectedRow[]): unknown[][] {
    const id = `${page.table}\u0000${page.columns.join(',')}`;
    let perColumn = this.checks.get(id);
    if (!perColumn) this.checks.set(id, (perColumn = types.map(valueCheck)));
    const rows: unknown[][] = [];
    for (let r = 0; r < page.rows.length; r++) {
      const row = page.rows[r]!;
      let reason: string | null = null;
      for (let c = 0; c < perColumn.length && reason === null; c++) {
        const problem = perColumn[c]?.(row[c]);
        if (problem) reason = `column "${page.columns[c]}" (${types[c]}): ${problem}`;
      }
      if (reason === null) rows.push(row);
      else rejected.push({ index: r, reason });
    }
    return rows;
  }

  private statement(page: UpsertPage, types: string[]): UpsertStatement {
    const id = `${page.table}\u0000${page.key.join(',')}\u0000${page.columns.join(',')}`;
    let statement = this.statements.get(id);
    if (!statement) this.statements.set(id, (statement = upsertStatement(page, types)));
    return statement;
  }
}

async function upsertChunk(trx: Kysely<Database>, statement: UpsertStatement, now: string, rows: readonly unknown[][]) {
  const result = await trx.executeQuery<{ inserted: boolean }>(CompiledQuery.raw(statement.text, [statement.encoding.encode(rows), now]));
  const inserted = result.rows.filter((r) => r.inserted).length;
  return { inserted, updated: result.rows.length - inserted };
}

/** After the page's statement failed on a record: each row under its own savepoint, the bad ones rejected. */
async function upsertRowByRow(
  trx: Kysely<Database>,
  statement: UpsertStatement,
  page: UpsertPage,
  rows: readonly unknown[][],
  rejected: RejectedRow[],
): Promise<Counts> {
  const total = { inserted: 0, updated: 0, rejected };
  for (const row of rows) {
    await trx.executeQuery(CompiledQuery.raw('savepoint upsert_row'));
    try {
      const counts = await upsertChunk(trx, statement, page.now, [row]);
      total.inserted += counts.inserted;
      total.updated += counts.updated;
    } catch (rowErr) {
      await trx.executeQuery(CompiledQuery.raw('rollback to savepoint upsert_row'));
      if (!isPostgresRecordError(rowErr)) throw rowErr;
      rejected.push({ index: page.rows.indexOf(row), reason: (rowErr as Error).message.slice(0, 300) });
    }
    await trx.executeQuery(CompiledQuery.raw('release savepoint upsert_row'));
  }
  return total;
}

/**
 * The rows the changed-row rule would write. An incremental run re-reads whole pages around each change;
 * sending only the changed rows spares PostgreSQL parsing (jsonb included) and checking every unchanged
 * one. The upsert's own WHERE stays the guarantee: a row this misses is still written only if it changed.
 */
async function withoutUnchanged(trx: Kysely<Database>, page: UpsertPage, types: string[]): Promise<readonly unknown[][]> {
  const hashAt = page.columns.indexOf('row_hash');
  if (hashAt < 0 || page.rows.length < PREFILTER_MIN_ROWS) return page.rows;
  const keyAt = page.key.map((k) => page.columns.indexOf(k));
  const { rows: held } = await trx.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(
      PREPARED +
        heldRowsQuery(
          page.table,
          page.key,
          keyAt.map((at) => types[at]!),
        ),
      keyAt.map((at) => page.rows.map((row) => row[at])),
    ),
  );
  if (held.length === 0) return page.rows;
  const stored = new Map<string, StoredVersion>(
    held.map((r) => [keyString(page.key.map((k) => r[k])), { row_hash: r.row_hash, deleted_at: r.live ? null : 'deleted' }]),
  );
  return page.rows.filter((row) => rowChanged(stored.get(keyString(keyAt.map((at) => row[at]))), row[hashAt]));
}
