// The differences between what a pass saw and what the mirror knew: a new field, a field gone, a field of
// another type, each with its share of the pass's records and one example.
import type { KnownField } from './expected-shape.js';
import { JSON_TYPES, type JsonType, NULL, typesText } from '../../json-types.js';
import { type PassShape, seenFields } from './pass-shape.js';
import type { FieldNode } from './shape-tree.js';

export type ChangeKind = 'new' | 'missing' | 'other type';
export type ChangeOutcome = 'reported' | 'coerced' | 'quarantined' | 'failed' | 'accepted' | 'held' | 'emptied';

export interface ShapeChange {
  path: string;
  kind: ChangeKind;
  /** The type it came in ('' when missing). */
  seen: string;
  /** What the mirror knew ('' for a new field). */
  expected: string;
  outcome: ChangeOutcome;
  records: number;
  share: number;
  example: string | null;
}

/** A field the passes before carried in at least this share of records is missed when a whole pass lacks it. */
const USUAL_SHARE = 0.5;
/** ...in a pass of at least this many records (a few records may all lack an occasional field). */
const MISSED_AFTER_RECORDS = 10;

/** The changes of one pass; `complete`: every record of the list was read (a field gone is judged only then). */
export function shapeChanges(shape: PassShape, complete: boolean): ShapeChange[] {
  const { known } = shape.expected;
  const changes: ShapeChange[] = [];
  for (const [path, count] of shape.missingRequired) changes.push(missing(shape, path, count, 'quarantined'));
  for (const [path, count] of shape.held) changes.push(missing(shape, path, count, 'held'));
  for (const path of shape.confirmedGone) if (!shape.held.has(path)) changes.push(missing(shape, path, shape.records, 'emptied'));
  if (known.size === 0 || shape.records === 0) return changes; // the stream's first pass: what it sees is the shape
  const seen = seenFields(shape);
  // Before the observer looked into lists, no list item's field was known: the first pass to see them learns them.
  const itemsKnown = [...known.keys()].some((p) => p.includes('[]'));
  for (const [path, node] of seen) {
    const field = known.get(path);
    if (!field) {
      if (itemsKnown || !path.includes('[]')) changes.push(newField(shape, path, node));
    } else changes.push(...otherTypes(shape, path, node, field));
  }
  if (complete && shape.records >= MISSED_AFTER_RECORDS) {
    for (const [path, field] of known) {
      const said = shape.missingRequired.has(path) || shape.held.has(path) || shape.confirmedGone.has(path);
      if (field.share < USUAL_SHARE || said || carried(seen.get(path)) > 0) continue;
      if (path.endsWith('[]')) continue; // a list's items gone: said of the list, or the list came empty
      if (path.includes('.') && !parentCarried(seen, path)) continue; // said once, of the parent
      changes.push(missing(shape, path, shape.records, 'reported'));
    }
  }
  return changes.filter((c) => c.records > 0);
}

function carried(node: FieldNode | undefined): number {
  return node ? node.counts.reduce((sum, n, t) => (t === NULL ? sum : sum + n), 0) : 0;
}

function parentCarried(seen: ReadonlyMap<string, FieldNode>, path: string): boolean {
  return carried(seen.get(path.slice(0, path.lastIndexOf('.')))) > 0;
}

function mainType(node: FieldNode): number {
  let best = NULL;
  node.counts.forEach((n, t) => {
    if (t !== NULL && n > (best === NULL ? 0 : node.counts[best]!)) best = t;
  });
  return best;
}

function newField(shape: PassShape, path: string, node: FieldNode): ShapeChange {
  const t = mainType(node);
  const records = carried(node);
  const outcome = shape.contract === 'fail' ? 'failed' : 'reported';
  return {
    path,
    kind: 'new',
    seen: t === NULL ? 'null' : JSON_TYPES[t]!,
    expected: '',
    outcome,
    records: t === NULL ? node.counts[NULL]! : records,
    share: (t === NULL ? node.counts[NULL]! : records) / shape.records,
    example: node.examples[t] ?? null,
  };
}

function otherTypes(shape: PassShape, path: string, node: FieldNode, field: KnownField): ShapeChange[] {
  const changes: ShapeChange[] = [];
  node.counts.forEach((n, t) => {
    const type = JSON_TYPES[t] as JsonType;
    if (n === 0 || t === NULL || field.types.length === 0 || field.types.includes(type)) return;
    const taken = shape.otherTypes.get(`${path}\u0000${type}`);
    changes.push({
      path,
      kind: 'other type',
      seen: type,
      expected: typesText(field.types),
      outcome: outcomeOf(shape, path, taken),
      records: n,
      share: n / shape.records,
      example: node.examples[t] ?? null,
    });
  });
  return changes;
}

function outcomeOf(shape: PassShape, path: string, taken: { coerced: number; lossy: number } | undefined): ChangeOutcome {
  if (shape.failed.has(path)) return 'failed';
  if (shape.contract === 'accept') return 'accepted';
  if (!taken) return 'reported'; // a field no column types: kept in `raw` as it came
  return taken.lossy > 0 ? 'quarantined' : 'coerced';
}

function missing(shape: PassShape, path: string, records: number, outcome: ChangeOutcome): ShapeChange {
  const field = shape.expected.known.get(path);
  return {
    path,
    kind: 'missing',
    seen: '',
    expected: field ? typesText(field.types) : '',
    outcome: shape.failed.has(path) ? 'failed' : outcome,
    records,
    share: records / shape.records,
    example: null,
  };
}
