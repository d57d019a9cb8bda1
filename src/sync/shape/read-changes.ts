// The changes of the service's shape as `status`, `ds-mirror schema --changes`, /metrics and the status page
// show them: one per change, the most recently seen first.
import type { Store } from '../../store/types.js';

export interface SchemaChange {
  stream: string;
  path: string;
  kind: string;
  seenType: string;
  expectedType: string;
  outcome: string;
  records: number;
  share: number;
  example: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
}

export async function readSchemaChanges(store: Store): Promise<SchemaChange[]> {
  const rows = await store.db
    .selectFrom('schema_changes')
    .selectAll()
    .orderBy('last_seen_at', 'desc')
    .orderBy('stream')
    .orderBy('path')
    .execute();
  return rows.map((r) => ({
    stream: r.stream,
    path: r.path,
    kind: r.kind,
    seenType: r.seen_type,
    expectedType: r.expected_type,
    outcome: r.outcome,
    records: Number(r.records),
    share: Number(r.share),
    example: r.example,
    firstSeenAt: new Date(r.first_seen_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
  }));
}

/** One line a change: what came, in how many records, what the mirror did, since when. */
export function changeLine(c: SchemaChange): string {
  const what =
    c.kind === 'new'
      ? `new field ${c.path} (${c.seenType}, e.g. ${c.example})`
      : c.kind === 'missing'
        ? `${c.path} missing`
        : `${c.path} came as ${c.seenType} where it was ${c.expectedType} (e.g. ${c.example})`;
  const since = c.firstSeenAt === c.lastSeenAt ? c.firstSeenAt : `${c.firstSeenAt} to ${c.lastSeenAt}`;
  return `${c.stream}: ${what}, ${c.records} records (${Math.round(c.share * 100)}%): ${c.outcome}; ${since}`;
}
