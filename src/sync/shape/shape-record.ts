// The shape's bookkeeping in the store: a stream's known shape read when its pass starts, and when the pass
// ends its changes recorded once each (a change seen again moves its `last_seen_at`) and the known shape
// brought up to date. A typed field keeps the type it had: a value of another type is a change, not the shape.
import type { Store } from '../../store/types.js';
import { expectedShape, type KnownField, type ShapeSource } from './expected-shape.js';
import { type JsonType, JSON_TYPES, NULL, parseTypes, typesText } from '../../json-types.js';
import { type Contract, PassShape, seenFields } from './pass-shape.js';
import { type ShapeChange, shapeChanges } from './shape-changes.js';

/** When a typed field missing from whole pages is written as gone: the operator's word, or a wait since it was first held. */
export interface GoneRule {
  confirmed: boolean;
  afterHours: number;
  now: string;
}

/** The pass's observer, with the stream's expected shape (the catalog's, and the types the passes before saw). */
export async function startShape(
  store: Store,
  stream: string,
  source: ShapeSource,
  contract: Contract,
  gone: GoneRule,
): Promise<PassShape> {
  const rows = await store.db.selectFrom('schema_fields').select(['path', 'json_types', 'share']).where('stream', '=', stream).execute();
  const known = new Map<string, KnownField>(rows.map((r) => [r.path, { types: parseTypes(r.json_types), share: Number(r.share) }]));
  const holds = await store.db
    .selectFrom('schema_changes')
    .select(['path', 'first_seen_at'])
    .where('stream', '=', stream)
    .where('kind', '=', 'missing')
    .where('outcome', '=', 'held')
    .execute();
  const heldSince = new Map(holds.map((h) => [h.path, Date.parse(String(h.first_seen_at))]));
  const waitMs = gone.afterHours * 3_600_000;
  const confirmed = (path: string) => {
    const since = heldSince.get(path);
    return gone.confirmed || (since !== undefined && Date.parse(gone.now) - since >= waitMs);
  };
  return new PassShape(expectedShape(stream, source, known), contract, confirmed);
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
    const after = knownAfter(shape);
    // A field held as gone that came back ends its hold (a later absence waits again).
    const back = [...after].filter(([path, f]) => f.share > 0 && !shape.held.has(path)).map(([path]) => path);
    if (back.length > 0)
      await tx.db
        .updateTable('schema_changes')
        .set({ outcome: 'returned', last_seen_at: now })
        .where('stream', '=', shape.stream)
        .where('kind', '=', 'missing')
        .where('outcome', '=', 'held')
        .where('path', 'in', back)
        .execute();
    for (const [path, field] of after) {
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
  // A field written as gone is no longer one the rows hold: its absence is the shape now.
  for (const path of shape.confirmedGone) {
    if (!out.has(path)) out.set(path, { types: typesText(shape.expected.known.get(path)?.types ?? []), share: 0 });
  }
  return out;
}

/** The changes in a sentence for the run's notice (the first few; `ds-mirror schema --changes` has all). */
export function changesNotice(changes: readonly ShapeChange[], part?: string): string | null {
  if (changes.length === 0) return null;
  const said = changes.slice(0, 4).map((c) => {
    if (c.kind === 'new') return `new field ${c.path} (${c.records} records)`;
    if (c.kind === 'missing') return `${c.path} missing in ${c.records} records (${c.outcome})`;
    return `${c.path} came as ${c.seen} in ${c.records} records (${c.outcome})`;
  });
  const more = changes.length > said.length ? ` and ${changes.length - said.length} more` : '';
  const where = part ? ` in its ${part}` : '';
  return `the service changed shape${where}: ${said.join(', ')}${more} (ds-mirror schema --changes)`;
}

/** The stream's contract: its own setting, else the configured default, else `hold`. */
export function contractOf(
  settings: { schemaChanges?: { default?: Contract; streams?: Readonly<Record<string, Contract>> } },
  stream: string,
): Contract {
  return settings.schemaChanges?.streams?.[stream] ?? settings.schemaChanges?.default ?? 'hold';
}
