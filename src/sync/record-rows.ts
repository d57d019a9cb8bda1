// Records → rows ready for the store: mapped columns, the record as received, and the content hash
// that decides whether a re-fetched record is a change. Records that cannot be mirrored are set aside
// with the reason (they go to quarantine; the sync goes on).
import { brokenTextProblem } from '../broken-text.js';
import { contentHash } from '../content-hash.js';
import { missingRequired, toRow } from './row-mapping.js';
import type { ColumnMap } from '../catalog/types.js';
import { jsonProblem } from '../store/storable.js';
import { keyString, type Row } from '../store/types.js';
import type { PassShape } from './shape/pass-shape.js';

export interface Mapped {
  rows: Row[];
  /** `field`: the field that kept the record out, when one did (a change of shape when most of a page share it). */
  rejected: { record: unknown; reason: string; field?: string }[];
}

export function recordsToRows(
  records: readonly unknown[],
  spec: { columns: ColumnMap; key: readonly string[]; required: readonly string[] },
  extra?: Row,
  shape?: PassShape,
): Mapped {
  const rows: Row[] = [];
  const rejected: Mapped['rejected'] = [];
  for (const record of records) {
    // The shape sees the record as received, then puts its typed fields in the types the mirror keeps.
    const drifted = shape?.take(record);
    const missing = missingRequired(record, spec.required);
    if (missing) {
      if (missing.field) shape?.noteMissing(missing.field);
      rejected.push({ record, ...missing });
      continue;
    }
    if (drifted) {
      rejected.push({ record, ...drifted });
      continue;
    }
    const row = toRow(record, spec.columns); // a fresh object: extended in place
    if (extra) Object.assign(row, extra);
    const checked = keyProblem(row, spec.key) ?? rawText(record);
    if (typeof checked === 'string') {
      rejected.push({ record, reason: checked });
      continue;
    }
    const { raw } = checked;
    row.raw = raw;
    row.row_hash = contentHash(raw);
    rows.push(row);
  }
  return { rows, rejected };
}

/**
 * The key of a record set aside, when it can be read: it was served, so no deletion is held or made
 * because it went to quarantine.
 */
export function servedKey(record: unknown, spec: { columns: ColumnMap; key: readonly string[] }): string | null {
  if (record === null || typeof record !== 'object') return null;
  const row = toRow(record, spec.columns);
  return keyProblem(row, spec.key) === null ? keyString(spec.key.map((k) => row[k])) : null;
}

/**
 * Why the row's key cannot identify it, or null. Keys are strings or integers: an object, list or
 * boolean is stored as text that never reads back as the same key, so the row would be deleted again
 * by the same pass.
 */
function keyProblem(row: Row, key: readonly string[]): string | null {
  for (const k of key) {
    const v = row[k];
    if (v === null || v === undefined) return `key column "${k}" is empty`;
    if (typeof v !== 'string' && !Number.isSafeInteger(v)) {
      return `key column "${k}" holds ${Array.isArray(v) ? 'a list' : typeof v === 'number' ? `the number ${v}` : `a ${typeof v}`}: a key must be a text or an integer`;
    }
  }
  return null;
}

/**
 * Records of a page whose text held a number with a three-digit exponent: one may have parsed to Infinity,
 * which JSON text cannot carry, so they are walked (only they: the check costs nothing on other pages).
 */
const MAYBE_OVERFLOWED = new WeakSet<object>();
const BIG_EXPONENT = /[0-9][eE]\+?[0-9]{3}/;

/** Marks the records of a page whose text may hold a number beyond the double range. */
export function noteOverflowSuspects(text: string, records: readonly unknown[]): void {
  if (!BIG_EXPONENT.test(text)) return;
  for (const r of records) if (r !== null && typeof r === 'object') MAYBE_OVERFLOWED.add(r);
}

/** The record's JSON text, or why no store can hold it (nested too deep to serialise, NUL, unpaired surrogates, 1e400). */
function rawText(record: unknown): string | { raw: string } {
  let raw: string;
  try {
    raw = JSON.stringify(record);
  } catch {
    return 'the record is nested too deep to store';
  }
  // JSON.stringify writes NUL and unpaired surrogates as \u escapes: only then is the record walked.
  const suspect = record !== null && typeof record === 'object' && MAYBE_OVERFLOWED.has(record);
  const problem = brokenTextProblem(record, raw) ?? (suspect || raw.includes('\\u') ? jsonProblem(record) : null);
  return problem ?? { raw };
}
