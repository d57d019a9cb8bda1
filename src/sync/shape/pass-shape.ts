// What one pass of a stream saw of the service's shape: every field path of its records with the JSON types
// it came in (a tree of counters, shape-tree.ts), the values taken by a loss-free coercion, and the records
// set aside because a typed field came in a form that loses something.
// The contract decides: `hold` coerces or quarantines, `accept` writes what comes, `fail` fails the stream.
import { DriftError } from '../../errors.js';
import { coerce, LOSSY } from './coercions.js';
import type { Expectation, ExpectedShape } from './expected-shape.js';
import { exampleOf, JSON_TYPES, type JsonType, NULL, typeIndex } from '../../json-types.js';
import { slotsOf } from './field-slots.js';
import { expectAt, type FieldNode, fieldsOf, newTree, observe } from './shape-tree.js';

export type Contract = 'hold' | 'accept' | 'fail';

/** Values of one field in another type: how many were coerced and how many could not be. */
export interface OtherType {
  path: string;
  seen: JsonType;
  expected: JsonType;
  coerced: number;
  lossy: number;
  example: string;
}

export class PassShape {
  records = 0;
  /** Records of pages served unchanged, so not parsed: a pass with some cannot tell a field is gone. */
  unparsed = 0;
  readonly root: FieldNode = newTree();
  readonly otherTypes = new Map<string, OtherType>();
  /** Records without a required field, by field. */
  readonly missingRequired = new Map<string, number>();
  /** Fields whose share of a page failed the stream. */
  readonly failed = new Set<string>();
  /** Typed fields missing from whole pages whose rows were kept as they were, with the records lacking them. */
  readonly held = new Map<string, number>();
  /** Typed fields gone long enough (or confirmed by the operator) to be written as gone. */
  readonly confirmedGone = new Set<string>();

  constructor(
    readonly expected: ExpectedShape,
    readonly contract: Contract = 'hold',
    /** Whether a typed field missing from whole pages is confirmed gone (held since long enough, or the operator's word). */
    private readonly goneConfirmed: (path: string) => boolean = () => false,
  ) {
    for (const field of expected.fields) if (field.target) expectAt(this.root, field.parts, field.target.type);
  }

  /**
   * The typed fields every earlier pass carried (in nearly every record) that no record of this page carries:
   * under `hold` the page's rows are kept as they were (a column is never emptied on one pass's word) until a
   * later pass agrees or the operator confirms. Empty when the page may be written.
   */
  holdPage(records: readonly unknown[]): string[] {
    if (this.contract === 'accept' || records.length < HOLD_AFTER_RECORDS) return [];
    const gone: string[] = [];
    for (const field of this.expected.fields) {
      // A field inside a list's items is not held: an item missing it is the item's own row's concern.
      if (!field.target || field.required || field.inList || (this.expected.known.get(field.path)?.share ?? 0) < USUAL_SHARE) continue;
      if (records.some((r) => valueAt(r, field.parts) != null)) continue;
      if (this.goneConfirmed(field.path)) this.confirmedGone.add(field.path);
      else gone.push(field.path);
    }
    if (gone.length > 0 && this.contract === 'fail') {
      for (const path of gone) this.failed.add(path);
      throw new DriftError(
        `${this.stream}: field "${gone[0]}" missing in all ${records.length} records of a page, and the stream's contract is fail`,
      );
    }
    for (const path of gone) this.held.set(path, (this.held.get(path) ?? 0) + records.length);
    return gone;
  }

  get stream(): string {
    return this.expected.stream;
  }

  /**
   * Notes the record's fields, then puts each typed field in the type the mirror keeps (in place, so the row
   * and `raw` agree). Returns the field that keeps the record out of the mirror, with why, or null.
   */
  take(record: unknown): { field: string; reason: string } | null {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return null;
    this.records++;
    // Most records carry every typed field in its type: the walk that counts them says so, and only a record
    // with a field in another type is checked field by field (the same check, so the same outcome).
    if (!observe(record as Record<string, unknown>, this.root)) return null;
    for (const field of this.expected.fields) {
      const problem = this.check(record as Record<string, unknown>, field);
      if (problem) return problem;
    }
    return null;
  }

  /** A record quarantined for lacking a required field. */
  noteMissing(field: string): void {
    this.missingRequired.set(field, (this.missingRequired.get(field) ?? 0) + 1);
  }

  /**
   * Fails the stream when most of a page's records were set aside for the same field: a change of shape,
   * not a few malformed records. Nothing of the page is written; the mirror's rows stay as they were.
   */
  judgePage(rejected: readonly { field?: string }[], records: number): void {
    const byField = new Map<string, number>();
    for (const r of rejected) if (r.field) byField.set(r.field, (byField.get(r.field) ?? 0) + 1);
    for (const [field, count] of byField) {
      if (count < 2 || count * 2 <= records) continue;
      this.failed.add(field);
      const other = [...this.otherTypes.values()].find((o) => o.path === field && o.lossy > 0);
      const what = other
        ? `field "${field}" came as ${other.seen} where the mirror keeps ${other.expected} (e.g. ${other.example})`
        : `required field "${field}" missing`;
      throw new DriftError(
        `${this.stream}: ${what} in ${count} of ${records} records of a page: the service changed shape; the page was not written and the mirror's rows stay as they were`,
      );
    }
  }

  private check(record: Record<string, unknown>, field: Expectation): { field: string; reason: string } | null {
    const { parts } = field;
    if (field.inList) {
      for (const [holder, key] of slotsOf(record, parts)) {
        const problem = this.checkValue(holder as Record<string | number, unknown>, key, field);
        if (problem) return problem;
      }
      return null;
    }
    let parent = record;
    for (let i = 0; i < parts.length - 1; i++) {
      const next = parent[parts[i]!];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) return null; // its parent's own check
      parent = next as Record<string, unknown>;
    }
    return this.checkValue(parent, parts[parts.length - 1]!, field);
  }

  /** One value of a typed field: taken as it is, coerced in place, or the reason its record is set aside. */
  private checkValue(
    holder: Record<string | number, unknown>,
    key: string | number,
    field: Expectation,
  ): { field: string; reason: string } | null {
    const { target } = field;
    const value = holder[key];
    const t = typeIndex(value);
    if (t === NULL || !target || JSON_TYPES[t] === target.type) return null;
    if (this.contract === 'accept') {
      this.tally(field, value, 'coerced'); // written as it came, and reported
      return null;
    }
    const coerced = this.contract === 'fail' ? LOSSY : coerce(value, target);
    if (coerced !== LOSSY) {
      holder[key] = coerced;
      this.tally(field, value, 'coerced');
      return null;
    }
    this.tally(field, value, 'lossy');
    if (this.contract === 'fail') {
      this.failed.add(field.path);
      throw new DriftError(
        `${this.stream}: field "${field.path}" came as ${JSON_TYPES[t]} where the mirror keeps ${target.type} (e.g. ${exampleOf(field.path, value)}), and the stream's contract is fail`,
      );
    }
    const reason = `field "${field.path}" came as ${JSON_TYPES[t]} ${exampleOf(field.path, value)} where the mirror keeps ${target.type}${target.time ? ` (${target.time} time)` : ''}: it cannot be taken without loss`;
    return { field: field.path, reason };
  }

  private tally(field: Expectation, value: unknown, how: 'coerced' | 'lossy'): void {
    const seen = JSON_TYPES[typeIndex(value)]!;
    const key = `${field.path}\u0000${seen}`;
    let other = this.otherTypes.get(key);
    if (!other) {
      other = { path: field.path, seen, expected: field.target!.type, coerced: 0, lossy: 0, example: exampleOf(field.path, value) };
      this.otherTypes.set(key, other);
    }
    other[how]++;
  }
}

/** Records of a page below which a field missing from all of them is not judged (a few may all lack it). */
const HOLD_AFTER_RECORDS = 3;
/** A field carried by at least this share of the records of the passes before is one the rows hold. */
const USUAL_SHARE = 0.95;

function valueAt(record: unknown, parts: readonly string[]): unknown {
  let value = record as Record<string, unknown> | null | undefined;
  for (const part of parts) {
    if (value === null || typeof value !== 'object') return null;
    value = value[part] as Record<string, unknown> | null | undefined;
  }
  return value;
}

/** Every field the pass saw, by dotted path. */
export function seenFields(shape: PassShape): Map<string, FieldNode> {
  return fieldsOf(shape.root);
}
