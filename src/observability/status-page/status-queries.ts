// The status page's reads that no other module makes: live rows, notices and quarantine per stream,
// the recent runs with their totals, and the alerts of the last days. Plain Kysely, both dialects.
import { sql } from 'kysely';
import { softDeletes, type StreamDef } from '../../catalog/index.js';
import { mirrorTables } from '../../store/database.js';
import type { Store } from '../../store/types.js';
import type { RunLine } from './status-data.js';

/** Rows not soft-deleted, where the stream soft-deletes (the catalog's word, which v_streams counts by too). */
export async function liveRows(store: Store, stream: StreamDef): Promise<number> {
  const row = (await mirrorTables(store.db)
    .selectFrom(stream.table)
    .select((eb) => eb.fn.countAll().as('n'))
    .$if(softDeletes(stream), (q) => q.where('deleted_at', 'is', null))
    .executeTakeFirst()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** Per stream: its last notice, and how many records it quarantined (every worker's). */
export async function streamExtras(store: Store): Promise<Map<string, { notice: string | null; quarantined: number }>> {
  const [states, quarantined] = await Promise.all([
    store.db.selectFrom('stream_state').select(['stream', 'last_notice']).execute(),
    store.db
      .selectFrom('quarantine')
      .select((eb) => ['stream', eb.fn.countAll().as('n')])
      .groupBy('stream')
      .execute(),
  ]);
  const extras = new Map<string, { notice: string | null; quarantined: number }>();
  for (const s of states) extras.set(String(s.stream), { notice: s.last_notice ?? null, quarantined: 0 });
  for (const q of quarantined) {
    const known = extras.get(String(q.stream)) ?? { notice: null, quarantined: 0 };
    extras.set(String(q.stream), { ...known, quarantined: Number(q.n) });
  }
  return extras;
}

/** The last `limit` runs, newest first, with their requests, rows written and first error. */
export async function recentRuns(store: Store, limit: number): Promise<RunLine[]> {
  const runs = await store.db
    .selectFrom('sync_runs as r')
    .leftJoin('sync_run_streams as s', 's.run_id', 'r.id')
    .select((eb) => [
      'r.id',
      'r.job',
      'r.mode',
      'r.streams',
      'r.started_at',
      'r.finished_at',
      'r.outcome',
      eb.fn.sum('s.requests').as('requests'),
      sql<number>`sum(coalesce(s.inserted, 0) + coalesce(s.updated, 0) + coalesce(s.deleted, 0))`.as('written'),
      eb.fn.max('s.error').as('error'),
    ])
    .groupBy(['r.id', 'r.job', 'r.mode', 'r.streams', 'r.started_at', 'r.finished_at', 'r.outcome'])
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
  return runs.map((r) => {
    const startedAt = iso(r.started_at)!;
    const finishedAt = iso(r.finished_at);
    return {
      id: Number(r.id),
      job: r.job ?? null,
      mode: String(r.mode),
      streams: streamList(r.streams),
      startedAt,
      durationMs: finishedAt === null ? null : Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
      requests: Number(r.requests ?? 0),
      rowsWritten: Number(r.written ?? 0),
      outcome: r.outcome ?? null,
      error: (r.error as string | null) ?? null,
    };
  });
}

function streamList(value: unknown): string[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/** PostgreSQL may hand back a Date where SQLite gives ISO text. */
export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
