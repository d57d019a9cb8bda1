// What the mirror has done, from the database alone: `ds-mirror status` prints it for a user who has
// only the SQLite file, and the daemon's /metrics exports the same numbers.
import { sql } from 'kysely';
import { allStreams } from '../catalog/index.js';
import { deliveryTotals, type DeliveryTotals } from '../receiver/index.js';
import type { Store } from '../store/types.js';

export type { DeliveryTotals };

export interface StreamTotals {
  stream: string;
  /** Passes recorded in sync_run_streams, and how many of them failed. */
  runs: number;
  failures: number;
  fetched: number;
  inserted: number;
  updated: number;
  deleted: number;
  requests: number;
  errors: number;
  lastSuccessAt: string | null;
  /** Seconds since the last success; null when the stream never succeeded. */
  lagSeconds: number | null;
  lastOutcome: string | null;
  lastError: string | null;
  /** The last error's stable code (`DS_DRIFT`: the service changed shape), when it had one. */
  lastErrorCode: string | null;
  lastDurationMs: number | null;
  /** An interrupted pass that the next run resumes. */
  resumes: boolean;
}

export interface MirrorStats {
  streams: StreamTotals[];
  deliveries: DeliveryTotals;
}

export async function readMirrorStats(store: Store, now: number = Date.now()): Promise<MirrorStats> {
  const [sums, states, deliveries] = await Promise.all([passSums(store.db), streamStates(store.db), deliveryTotals(store)]);
  const byName = new Map(states.map((s) => [String(s.stream), s]));
  // The catalog's streams only: a stream an earlier version had (or a name a test made up) is not reported.
  const known = new Set(allStreams().map((s) => s.name));
  const names = [...new Set([...sums.map((s) => String(s.stream)), ...byName.keys()])].filter((n) => known.has(n)).sort();
  const streams = names.map((stream) =>
    streamTotals(
      stream,
      sums.find((s) => s.stream === stream),
      byName.get(stream),
      now,
    ),
  );
  return { streams, deliveries };
}

type Db = Store['db'];

/** Per stream, the sums over every pass recorded in sync_run_streams. */
function passSums(db: Db) {
  return db
    .selectFrom('sync_run_streams')
    .select((eb) => [
      'stream',
      eb.fn.countAll().as('runs'),
      sql<number>`sum(case when outcome = 'failed' then 1 else 0 end)`.as('failures'),
      eb.fn.sum('fetched').as('fetched'),
      eb.fn.sum('inserted').as('inserted'),
      eb.fn.sum('updated').as('updated'),
      eb.fn.sum('deleted').as('deleted'),
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('errors').as('errors'),
    ])
    .groupBy('stream')
    .execute();
}

/** Per stream, its state and how its last pass ended. */
function streamStates(db: Db) {
  return db
    .selectFrom('stream_state as s')
    .leftJoin('sync_run_streams as r', (j) => j.onRef('r.run_id', '=', 's.last_run_id').onRef('r.stream', '=', 's.stream'))
    .select(['s.stream', 's.last_success_at', 's.last_error', 's.last_error_code', 's.checkpoint', 'r.outcome', 'r.duration_ms'])
    .execute();
}

type PassSums = Awaited<ReturnType<typeof passSums>>[number];
type StreamStateRow = Awaited<ReturnType<typeof streamStates>>[number];

function streamTotals(stream: string, sum: PassSums | undefined, state: StreamStateRow | undefined, now: number): StreamTotals {
  const lastSuccessAt = iso(state?.last_success_at);
  return {
    stream,
    runs: num(sum?.runs),
    failures: num(sum?.failures),
    fetched: num(sum?.fetched),
    inserted: num(sum?.inserted),
    updated: num(sum?.updated),
    deleted: num(sum?.deleted),
    requests: num(sum?.requests),
    errors: num(sum?.errors),
    lastSuccessAt,
    lagSeconds: lastSuccessAt === null ? null : Math.max(0, Math.round((now - Date.parse(lastSuccessAt)) / 1000)),
    lastOutcome: state?.outcome ?? null,
    lastError: state?.last_error ?? null,
    lastErrorCode: state?.last_error ? (state.last_error_code ?? null) : null,
    lastDurationMs: state?.duration_ms === null || state?.duration_ms === undefined ? null : num(state.duration_ms),
    resumes: state?.checkpoint !== null && state?.checkpoint !== undefined,
  };
}

// PostgreSQL returns sums as strings (numeric) and counts as bigint strings; timestamps as Date.
function num(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}
