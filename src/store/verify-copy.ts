// Row-for-row comparison of one table in two stores: both read in key order, every row normalized to
// a dialect-neutral form (copy-values.ts) and compared; the first difference is named by its key.
import { readInKeyOrder } from './key-order-reader.js';
import { normalizer, sameValue } from './copy-values.js';
import type { ColumnKind, TableInfo } from './store-tables.js';
import type { Row, Store } from './types.js';

export interface TablePair {
  source: TableInfo;
  target: TableInfo;
  /** Kind per column, decided by the PostgreSQL side when there is one. */
  kinds: Map<string, ColumnKind>;
}

export interface TableCheck {
  table: string;
  sourceRows: number;
  targetRows: number;
  /** The first difference, or null when every row matches. */
  mismatch: string | null;
}

export async function verifyTable(
  from: Store,
  to: Store,
  pair: TablePair,
  batchRows: number,
  onRows?: (done: number) => void,
): Promise<TableCheck> {
  const { source } = pair;
  const columns = source.columns.map((c) => c.name).sort();
  const normalize = columns.map((c) => normalizer(pair.kinds.get(c) ?? 'other'));
  const form = (row: Row) => columns.map((c, i) => normalize[i](row[c]));
  const check: TableCheck = { table: source.name, sourceRows: 0, targetRows: 0, mismatch: null };

  if (source.key.length === 0) return verifyUnkeyed(from, to, pair, form, check);
  const left = new RowCursor(readInKeyOrder(from, source, batchRows));
  const right = new RowCursor(readInKeyOrder(to, pair.target, batchRows));
  for (;;) {
    const [a, b] = await Promise.all([left.next(), right.next()]);
    if (a) check.sourceRows++;
    if (b) check.targetRows++;
    if (!a && !b) return check;
    if (check.sourceRows % batchRows === 0) onRows?.(check.sourceRows);
    const fa = a && form(a);
    const fb = b && form(b);
    if (fa && fb && sameValue(fa, fb)) continue;
    check.mismatch = describe(source, columns, a, b, fa, fb);
    check.sourceRows += await left.rest();
    check.targetRows += await right.rest();
    return check;
  }
}

/** A table without a primary key (none today): compare sorted normalized rows in memory. */
async function verifyUnkeyed(from: Store, to: Store, pair: TablePair, form: (r: Row) => unknown[], check: TableCheck): Promise<TableCheck> {
  const read = async (store: Store, table: TableInfo) =>
    ((await store.db.selectFrom(table.name).selectAll().execute()) as Row[]).map((r) => JSON.stringify(form(r), sortedKeys)).sort();
  const [a, b] = await Promise.all([read(from, pair.source), read(to, pair.target)]);
  check.sourceRows = a.length;
  check.targetRows = b.length;
  if (a.some((row, n) => row !== b[n])) check.mismatch = `${pair.source.name}: rows differ (a table without a primary key)`;
  return check;
}

/** JSON.stringify replacer that writes object keys in sorted order. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]]));
}

function describe(table: TableInfo, columns: string[], a?: Row, b?: Row, fa?: unknown[], fb?: unknown[]): string {
  const keyOf = (row: Row) => table.key.map((k) => `${k}=${String(row[k])}`).join(', ');
  if (!b) return `${table.name}: row ${keyOf(a!)} is missing from the target`;
  if (!a) return `${table.name}: row ${keyOf(b)} is in the target only`;
  if (keyOf(a) !== keyOf(b)) return `${table.name}: the source has row ${keyOf(a)} where the target has ${keyOf(b)}`;
  const differ = columns.filter((_, i) => !sameValue(fa![i], fb![i]));
  return `${table.name}: row ${keyOf(a)} differs in ${differ.join(', ')}`;
}

class RowCursor {
  private batch: Row[] = [];
  private at = 0;

  constructor(private readonly batches: AsyncGenerator<Row[]>) {}

  async next(): Promise<Row | undefined> {
    while (this.at >= this.batch.length) {
      const { value, done } = await this.batches.next();
      if (done) return undefined;
      this.batch = value;
      this.at = 0;
    }
    return this.batch[this.at++];
  }

  /** Counts the rows left without comparing them. */
  async rest(): Promise<number> {
    let n = this.batch.length - this.at;
    for await (const batch of this.batches) n += batch.length;
    this.batch = [];
    this.at = 0;
    return n;
  }
}
