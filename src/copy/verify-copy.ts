// Row-for-row comparison of one table in two stores, every row normalized to a dialect-neutral form
// (copy-values.ts); the first difference is named by its key. When both stores order the key the same
// way (byte order) the two are read side by side in key order; otherwise (text keys under a
// PostgreSQL locale collation) the source's row digests are held by key and the target checked against them.
import { contentHash } from '../content-hash.js';
import { readInKeyOrder } from './key-order-reader.js';
import { normalizer, sameValue } from './copy-values.js';
import type { ColumnKind, TableInfo } from '../store/store-tables.js';
import type { Row, Store } from '../store/types.js';

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

export interface VerifyOptions {
  batchRows: number;
  /** Match rows by key in memory even when both stores order keys alike (chosen automatically otherwise). */
  byKey?: boolean;
  onRows?: (done: number) => void;
}

type Form = (row: Row) => unknown[];

export async function verifyTable(from: Store, to: Store, pair: TablePair, opts: VerifyOptions): Promise<TableCheck> {
  const { source, target } = pair;
  const columns = source.columns.map((c) => c.name).sort();
  const normalize = columns.map((c) => normalizer(pair.kinds.get(c) ?? 'other'));
  const form: Form = (row) => columns.map((c, i) => normalize[i](row[c]));
  const check: TableCheck = { table: source.name, sourceRows: 0, targetRows: 0, mismatch: null };

  if (source.key.length === 0) return verifyUnkeyed(from, to, pair, form, check);
  if (opts.byKey || !source.keyByteOrdered || !target.keyByteOrdered) return verifyByKey(from, to, pair, opts, columns, form, check);
  const { batchRows, onRows } = opts;
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

async function verifyByKey(
  from: Store,
  to: Store,
  pair: TablePair,
  opts: VerifyOptions,
  columns: string[],
  form: Form,
  check: TableCheck,
): Promise<TableCheck> {
  const { source } = pair;
  const keyOf = (row: Row) => JSON.stringify(source.key.map((k) => row[k]));
  const digest = (row: Row) => contentHash(JSON.stringify(form(row), sortedKeys));
  const digests = new Map<string, string>();
  for await (const batch of readInKeyOrder(from, source, opts.batchRows)) {
    for (const row of batch) digests.set(keyOf(row), digest(row));
    check.sourceRows += batch.length;
    opts.onRows?.(check.sourceRows);
  }
  for await (const batch of readInKeyOrder(to, pair.target, opts.batchRows)) {
    check.targetRows += batch.length;
    for (const row of batch) {
      if (check.mismatch) break;
      const key = keyOf(row);
      const want = digests.get(key);
      digests.delete(key);
      if (want === digest(row)) continue;
      const a = want === undefined ? undefined : await rowByKey(from, source, row);
      check.mismatch = describe(source, columns, a, row, a && form(a), form(row));
    }
  }
  const [missing] = digests.keys();
  if (!check.mismatch && missing !== undefined) {
    const values = JSON.parse(missing) as unknown[];
    check.mismatch = describe(source, columns, Object.fromEntries(source.key.map((k, i) => [k, values[i]])));
  }
  return check;
}

async function rowByKey(store: Store, table: TableInfo, like: Row): Promise<Row | undefined> {
  let query = store.db.selectFrom(table.name).selectAll();
  for (const k of table.key) query = query.where(k, '=', like[k]);
  return (await query.executeTakeFirst()) as Row | undefined;
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
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, (value as Record<string, unknown>)[k]]),
  );
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
