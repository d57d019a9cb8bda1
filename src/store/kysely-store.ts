// The Store over Kysely: run records, stream state, soft deletes and leases, the same SQL on both
// dialects; anything dialect-specific is asked of the adapter.
import { storageCause } from './storage-errors.js';
import { LOCKED, UNREACHABLE } from './storage-causes.js';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Migrations } from './migrations.js';
import { runMigrations } from './run-migrations.js';
import { acquireLease, breakLease, leaseHolder, LeaseHeldError, liveLeases } from './store-lease.js';
import { KyselyStoreTx } from './store-tx.js';
import { rowKey } from './types.js';
import { mirrorTables, type Database } from './database.js';
import { transactionWriter } from './durable-writer.js';
import type {
  Dialect,
  DurableWriter,
  Lease,
  LeaseHolder,
  Row,
  RunRecord,
  Store,
  StoreAdapter,
  StoreTx,
  StreamRunStats,
  StreamState,
} from './types.js';

export class KyselyStore implements Store {
  readonly dialect: Dialect;
  /** Typed for the engine's own tables (Store.db, its interface, reaches the mirrored ones too). */
  readonly db: Kysely<Database>;

  /** `migrations`: what `migrate` applies; `location`: the file, or the URL without its password, for error messages. */
  constructor(
    readonly adapter: StoreAdapter,
    private readonly migrations: Migrations,
    readonly location: string,
  ) {
    this.dialect = adapter.dialect;
    this.db = adapter.db;
  }

  private durablePending = 0;

  migrate(): ReturnType<Store['migrate']> {
    return runMigrations(this.adapter.migrationDb ?? this.db, this.adapter, this.migrations);
  }

  async transaction<T>(fn: (tx: StoreTx) => Promise<T>, opts: { durable?: boolean } = {}): Promise<T> {
    const run = () =>
      again(opts.durable ? CONNECTION_LOSS : CONNECTION_LOSS_OR_LOCK, () =>
        this.db.transaction().execute(async (trx) => {
          await this.adapter.boundLockWait?.(trx);
          if (opts.durable) await this.adapter.durableTransaction(trx);
          return fn(new KyselyStoreTx(trx, this.adapter));
        }),
      );
    if (!opts.durable) return run();
    // SQLite refuses to change the safety level inside a transaction: it is raised before and lowered
    // after, once no durable transaction is pending (others meanwhile merely commit durably too).
    if (this.durablePending++ === 0) await this.adapter.durableCommits(this.db, true);
    try {
      return await run();
    } finally {
      if (--this.durablePending === 0) await this.adapter.durableCommits(this.db, false);
    }
  }

  async openDurableWriter(): Promise<DurableWriter> {
    return (await this.adapter.writerThread?.()) ?? transactionWriter(this);
  }

  async softDeleteMissing(table: string, key: readonly string[], seen: ReadonlySet<string>, scope: Row, now: string): Promise<number> {
    const scoped = Object.entries(scope).map(([column, value]) => [column, this.adapter.toDb(value)] as const);
    return mirrorTables(this.db)
      .transaction()
      .execute(async (trx) => {
        let live = trx
          .selectFrom(table)
          .select([...key])
          .where('deleted_at', 'is', null);
        for (const [column, value] of scoped) live = live.where(column, '=', value);
        const missing = (await live.execute()).filter((row) => !seen.has(rowKey(row, key)));
        // Row-value IN lists, in chunks: PostgreSQL expands a row-value list into nested ORs.
        const chunk = this.adapter.rowsPerStatement(key.length, scoped.length + 1);
        const keyTuple = sql.join(key.map((k) => sql.ref(k)));
        let deleted = 0;
        for (let i = 0; i < missing.length; i += chunk) {
          const tuples = missing.slice(i, i + chunk).map((row) => sql`(${sql.join(key.map((k) => row[k]))})`);
          let update = trx
            .updateTable(table)
            .set({ deleted_at: now })
            .where('deleted_at', 'is', null)
            .where(sql<boolean>`(${keyTuple}) in (${sql.join(tuples)})`);
          for (const [column, value] of scoped) update = update.where(column, '=', value);
          const [result] = await update.execute();
          deleted += Number(result?.numUpdatedRows ?? 0n);
        }
        return deleted;
      });
  }

  async getState(stream: string): Promise<StreamState | null> {
    const row = await this.db.selectFrom('stream_state').selectAll().where('stream', '=', stream).executeTakeFirst();
    if (!row) return null;
    return {
      stream: row.stream,
      checkpoint: row.checkpoint === null ? null : JSON.parse(row.checkpoint),
      lastSuccessAt: row.last_success_at,
      lastError: row.last_error,
      lastErrorCode: row.last_error_code,
      lastNotice: row.last_notice,
      lastRunId: row.last_run_id,
    };
  }

  async finishStream(runId: number, stats: StreamRunStats, now: string): Promise<void> {
    const record = {
      fetched: stats.fetched,
      inserted: stats.inserted,
      updated: stats.updated,
      unchanged: stats.unchanged,
      deleted: stats.deleted,
      errors: stats.errors,
      requests: stats.requests,
      details: stats.details ?? 0,
      duration_ms: Math.round(stats.durationMs),
      outcome: stats.outcome,
      error: stats.error ?? null,
      error_code: stats.error ? (stats.errorCode ?? null) : null,
      notice: stats.notice ?? null,
    };
    // The checkpoint is the last page's (saved in its transaction); last success is kept on a failure.
    const update = {
      last_error: stats.error ?? null,
      last_error_code: record.error_code,
      last_notice: stats.notice ?? null,
      last_run_id: runId,
      updated_at: now,
      ...(stats.outcome === 'success' ? { last_success_at: now } : {}),
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sync_run_streams')
        .values({ run_id: runId, stream: stats.stream, ...record })
        .onConflict((oc) => oc.columns(['run_id', 'stream']).doUpdateSet(record))
        .execute();
      // A stream skipped because another worker holds it: that worker owns its state.
      if (stats.outcome === 'skipped') return;
      await trx
        .insertInto('stream_state')
        .values({ stream: stats.stream, ...update })
        .onConflict((oc) => oc.column('stream').doUpdateSet(update))
        .execute();
    });
  }

  async startRun(streams: readonly string[], mode: 'full' | 'incremental', now: string, job?: string, owner?: string): Promise<number> {
    const row = await this.db
      .insertInto('sync_runs')
      .values({ started_at: now, mode, streams: JSON.stringify(streams), job: job ?? null, owner: owner ?? null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async finishRun(runId: number, outcome: StreamRunStats['outcome'], now: string): Promise<void> {
    await this.db.updateTable('sync_runs').set({ finished_at: now, outcome }).where('id', '=', runId).execute();
  }

  async closeInterruptedRuns(now: string, staleBefore: string, ownerDied: (owner: string) => boolean): Promise<number[]> {
    const open = await this.db
      .selectFrom('sync_runs')
      .select(['id', 'owner', 'started_at', 'streams'])
      .where('finished_at', 'is', null)
      .execute();
    if (open.length === 0) return [];
    const live = await this.db.selectFrom('leases').select('owner').where('expires_at', '>', this.adapter.leaseNow()).execute();
    const liveOwners = new Set(live.map((l) => String(l.owner)));
    const stale = Date.parse(staleBefore);
    const dead = open.filter((run) => {
      const owner = run.owner === null ? null : String(run.owner);
      if (owner !== null && ownerDied(owner)) return true;
      // A run from before owners were recorded: dead once old and nobody holds a lease at all.
      const holding = owner === null ? liveOwners.size > 0 : liveOwners.has(owner);
      return Date.parse(String(run.started_at)) < stale && !holding;
    });
    for (const run of dead) {
      const id = Number(run.id);
      const streams: string[] = JSON.parse(String(run.streams));
      await this.db.transaction().execute(async (trx) => {
        const done = new Set(
          (await trx.selectFrom('sync_run_streams').select('stream').where('run_id', '=', id).execute()).map((r) => r.stream),
        );
        const unfinished = streams.filter((stream) => !done.has(stream));
        const error = 'the run ended before this stream finished (its process was killed or crashed); pages committed before that are kept';
        if (unfinished.length > 0) {
          await trx
            .insertInto('sync_run_streams')
            .values(unfinished.map((stream) => ({ run_id: id, stream, outcome: 'interrupted', error })))
            .execute();
        }
        await trx
          .updateTable('sync_runs')
          .set({ finished_at: now, outcome: 'interrupted' })
          .where('id', '=', id)
          .where('finished_at', 'is', null)
          .execute();
      });
    }
    return dead.map((run) => Number(run.id));
  }

  acquireLease(name: string, owner: string, ttlMs: number): Promise<Lease | null> {
    return acquireLease(this.db, this.adapter, name, owner, ttlMs);
  }

  async holdLease(name: string, owner: string, ttlMs: number): Promise<Lease> {
    const lease = await this.acquireLease(name, owner, ttlMs);
    if (lease) return lease;
    throw new LeaseHeldError(name, await this.leaseHolder(name), this.adapter.leaseHint);
  }

  leaseHolder(name: string): Promise<LeaseHolder | null> {
    return leaseHolder(this.db, this.adapter, name);
  }

  liveLeases(): ReturnType<Store['liveLeases']> {
    return liveLeases(this.db, this.adapter);
  }

  breakLease(name: string, owner: string): Promise<void> {
    return breakLease(this.db, name, owner);
  }

  async lastJobRun(job: string, outcomes?: readonly StreamRunStats['outcome'][]): Promise<RunRecord | null> {
    const row = await this.db
      .selectFrom('sync_runs')
      .select(['id', 'started_at', 'finished_at', 'outcome'])
      .where('job', '=', job)
      .$if(outcomes === undefined, (q) => q.where('outcome', 'is not', null))
      .$if(outcomes !== undefined, (q) => q.where('outcome', 'in', [...outcomes!]))
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row
      ? {
          id: Number(row.id),
          startedAt: String(row.started_at),
          finishedAt: row.finished_at === null ? null : String(row.finished_at),
          outcome: row.outcome,
        }
      : null;
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  close(): Promise<void> {
    return this.adapter.close();
  }
}

const RETRIES = 2;
const CONNECTION_LOSS: ReadonlySet<string> = new Set([UNREACHABLE]);
/**
 * The mirror's own writes also run again when they lost a lock conflict: a deadlock (PostgreSQL picks one
 * side to fail, and its documentation asks the client to retry), or a lock held past the bound, which in a
 * `sync all` is most often the run's own other stream (the alert backfill and the events pass both update
 * alert_days' rows). A durable write is not: a delivery answered 503 is sent again by the service, and
 * waiting three bounds would outlast the sender's patience.
 */
const CONNECTION_LOSS_OR_LOCK: ReadonlySet<string> = new Set([UNREACHABLE, LOCKED]);

/**
 * A transaction whose connection was cut (a restart, a failover) was rolled back by the server: it is run
 * again on a fresh connection, twice at most. Every transaction here may run twice: page writes are
 * upserts with their checkpoint, deliveries are keyed by id.
 */
async function again<T>(causes: ReadonlySet<string>, run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= RETRIES || !causes.has(storageCause(err) ?? '')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
  }
}
