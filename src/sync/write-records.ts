// The one write path of mapped records: records → rows (malformed ones to quarantine) → upsert when
// changed, with the keys written kept for deletion detection. A list's child table (a category's
// subcategories) is written in the same transaction, from the same records.
import type { ChildTable, MappedTable } from '../catalog/types.js';
import { rowKey, type StoreTx, type WriteCounts } from '../store/types.js';
import { addWrites } from './context.js';
import { recordsToRows, servedKey, type Mapped } from './record-rows.js';
import type { LiveKeys } from './renamed-keys.js';
import type { PassShape } from './shape/pass-shape.js';

/** Where records go: a mapped table, and the table of their children if they carry any. */
export interface RecordTarget extends MappedTable {
  child?: ChildTable;
}

/** Records as written: their keys (and their children's), records quarantined, row counts. */
export interface Written {
  keys: string[];
  childKeys: string[];
  /** Child records read (counted as fetched beside the page's own). */
  childRecords: number;
  rejected: number;
  /** Rows kept as they were: their records lack a field the rows hold (pass-shape.ts `holdPage`). */
  held?: number;
  counts: WriteCounts;
}

/** Records mapped and written at a time: a 10,000-record page never holds all of its rows at once. */
const WRITE_SLICE = 1000;

export function nothingWritten(keys: string[], unchanged: number): Written {
  return { keys, childKeys: [], childRecords: 0, rejected: 0, counts: { inserted: 0, updated: 0, unchanged } };
}

/**
 * Maps and upserts records, a slice at a time; malformed records go to quarantine (their keys still count
 * as served). The array is consumed: each slice is released as it is written. With the pass's shape, typed
 * fields are coerced, and a slice most of whose records share one field's fault fails the stream. With
 * `live` (a list whose keys can go), a record under a new key that renames a live one in case or spacing
 * waits instead (renamed-keys.ts); its key counts as served.
 */
export async function writeRecords(
  tx: StoreTx,
  target: RecordTarget,
  records: unknown[],
  now: string,
  shape?: PassShape,
  live?: LiveKeys,
): Promise<Written> {
  const written = nothingWritten([], 0);
  for (let i = 0; i < records.length; i += WRITE_SLICE) {
    const slice = records.slice(i, i + WRITE_SLICE);
    records.fill(null, i, i + WRITE_SLICE);
    const mapped = recordsToRows(slice, target, undefined, shape);
    shape?.judgePage(mapped.rejected, slice.length);
    for (const row of mapped.rows) written.keys.push(rowKey(row, target.key));
    for (const { record } of mapped.rejected) {
      const key = servedKey(record, target);
      if (key !== null) written.keys.push(key);
    }
    if (shape && shape.holdPage(slice).length > 0) {
      written.held = (written.held ?? 0) + mapped.rows.length;
      mapped.rows = [];
    }
    if (live) mapped.rows = await live.divert(tx, target.key, mapped.rows, now);
    await writeMapped(tx, target, mapped, now, written);
    if (target.child) await writeChildren(tx, target, target.child, mapped.rows, now, written);
  }
  return written;
}

/** Mapped rows upserted when changed, the records that could not be mapped quarantined; counted into `written`. */
export async function writeMapped(tx: StoreTx, target: MappedTable, mapped: Mapped, now: string, written: Written): Promise<void> {
  const label = target.label ? `${target.label}: ` : '';
  for (const r of mapped.rejected) await tx.quarantine(target.name, `${label}${r.reason}`, r.record, now);
  written.rejected += mapped.rejected.length;
  if (mapped.rows.length === 0) return;
  const counts = await tx.upsertChanged(target.table, target.key, mapped.rows, now, target.name);
  addWrites(written.counts, counts);
  written.rejected += counts.rejected; // quarantined by the store: still served, so its key stays seen
}

/** The child records of each parent row (read back from the row's raw JSON), keyed under the parent. */
async function writeChildren(
  tx: StoreTx,
  target: RecordTarget,
  child: ChildTable,
  parents: readonly Record<string, unknown>[],
  now: string,
  written: Written,
): Promise<void> {
  const mapped: Mapped = { rows: [], rejected: [] };
  for (const parent of parents) {
    const record = JSON.parse(String(parent.raw)) as Record<string, unknown>;
    const children = record[child.records];
    const under = Object.fromEntries(Object.entries(child.parentColumns).map(([column, from]) => [column, parent[from]]));
    const rows = recordsToRows(Array.isArray(children) ? children : [], child, under);
    mapped.rows.push(...rows.rows);
    mapped.rejected.push(...rows.rejected);
  }
  for (const row of mapped.rows) written.childKeys.push(rowKey(row, child.key));
  written.childRecords += mapped.rows.length + mapped.rejected.length;
  await writeMapped(tx, { ...child, name: target.name }, mapped, now, written);
}
