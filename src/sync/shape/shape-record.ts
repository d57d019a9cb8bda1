// The shape's bookkeeping in the store: a stream's known shape read when its pass starts, and when the pass
// ends its changes recorded once each (a change seen again moves its `last_seen_at`) and the known shape
// brought up to date. A typed field keeps the type it had: a value of another type is a change, not the shape.
import type { Store } from '../../store/types.js';
import { expectedShape, type KnownField, type ShapeSource } from './expected-shape.js';
import { type JsonType, JSON_TYPES, NULL, parseTypes, typesText } from './json-types.js';
import { type Contract, PassShape, seenFields } from './pass-shape.js';
import { type ShapeChange, shapeChanges } from './shape-changes.js';

/** The pass's observer, with the stream's expected shape (the catalog's, and the types the passes before saw). */
export async function startShape(store: Store, stream: string, source: ShapeSource, contract: Contract): Promise<PassShape> {
  const rows = await store.db.selectFrom('schema_fields').select(['path', 'json_types', 'share']).where('stream', '=', stream).execute();
  const known = new Map<string, KnownField>(rows.map((r) => [r.path, { types: parseTypes(r.json_types), share: Number(r.share) }]));
  return new PassShape(expectedShape(stream, source, known), contract);
}

/** Records the pass's changes and its fields; returns the changes (for the run's notice). */
export async function recordShape(store: Store, shape: PassShape, complete: boolean, now: string): Promise<ShapeChange[]> {
  if (shape.records === 0) return [];
  const changes = shapeChanges(shape, complete);
  await store.transaction(async (tx) => {
    for (const c of changes) {
      const values = { outcome: c.outcome, records: c.records, share: c.share, last_seen_at: now };
      await tx.db
        .insertInto('schema_changes')
        .values({
          stream: shape.stream,
          path: c.path,
          kind: c.kind,
          seen_type: c.seen,
          expected_type: c.expected,
          example: c.example,
          first_seen_at: now,
          ...values,
        })
        .onConflict((oc) => oc.columns(['stream', 'path', 'kind', 'seen_type']).doUpdateSet(values))
        .execute();
    }
    for (const [path, field] of knownAfter(shape)) {
      const values = { json_types: field.types, share: field.share, last_seen_at: now };
      await tx.db
        .insertInto('schema_fields')
        .values({ stream: shape.stream, path, first_seen_at: now, ...values })
        .onConflict((oc) => oc.columns(['stream', 'path']).doUpdateSet(values))
        .execute();
    }
  });
  return changes;
}

/**
 * The fields the pass carried, as the known shape keeps them: a typed field keeps its type (under `hold`
 * a value of another type was coerced or set aside, and stays a change), other fields add what they came in.
 */
function knownAfter(shape: PassShape): Map<string, { types: string; share: number }> {
  const typed = new Set(shape.expected.fields.filter((f) => f.target).map((f) => f.path));
  const out = new Map<string, { types: string; share: number }>();
  for (const [path, node] of seenFields(shape)) {
    const seen = JSON_TYPES.filter((_t, i) => i !== NULL && node.counts[i]! > 0) as JsonType[];
    const carried = seen.reduce((sum, t) => sum + node.counts[JSON_TYPES.indexOf(t)]!, 0);
    if (carried === 0) continue;
    const before = shape.expected.known.get(path)?.types ?? [];
    const keep = before.length > 0 && typed.has(path) && shape.contract !== 'accept';
    out.set(path, { types: typesText(keep ? before : [...before, ...seen]), share: carried / shape.records });
  }
  return out;
}

/** The changes in a sentence for the run's notice (the first few; `ds-mirror schema --changes` has all). */
export function changesNotice(changes: readonly ShapeChange[]): string | null {
  if (changes.length === 0) return null;
  const said = changes.slice(0, 4).map((c) => {
    if (c.kind === 'new') return `new field ${c.path} (${c.records} records)`;
    if (c.kind === 'missing') return `${c.path} missing in ${c.records} records (${c.outcome})`;
    return `${c.path} came as ${c.seen} in ${c.records} records (${c.outcome})`;
  });
  const more = changes.length > said.length ? ` and ${changes.length - said.length} more` : '';
  return `the service changed shape: ${said.join(', ')}${more} (ds-mirror schema --changes)`;
}

/** The stream's contract: its own setting, else the configured default, else `hold`. */
export function contractOf(
  settings: { schemaChanges?: { default?: Contract; streams?: Readonly<Record<string, Contract>> } },
  stream: string,
): Contract {
  return settings.schemaChanges?.streams?.[stream] ?? settings.schemaChanges?.default ?? 'hold';
}
