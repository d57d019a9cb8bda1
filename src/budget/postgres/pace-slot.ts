// The pace every worker of one PostgreSQL database shares: one row of pace_slots per family holds when
// its next request may start, by the database's clock (so the workers' own clocks do not matter), and
// each request takes the next slot in one statement. The budget's one piece of a dialect, kept in a
// folder named for it and reached through shared-pace.ts, as the store reaches its dialect folders.
import { sql, type Kysely } from 'kysely';

/** This dialect's shared pace (shared-pace.ts, SharedPace). */
export const postgresPace = {
  dialect: 'postgres' as const,
  take: takePaceSlot,
};

/**
 * Takes the family's next slot: `next_at` moves one interval past the later of itself and now, and the
 * slot is where it stood (the first request of an idle family goes at once). The slot's start (epoch ms,
 * by the database's clock) and how long from now that is.
 */
export async function takePaceSlot(db: Kysely<any>, family: string, intervalMs: number): Promise<{ startMs: number; waitMs: number }> {
  const step = sql`make_interval(secs => ${intervalMs / 1000})`;
  const { rows } = await sql<{ start_ms: number; wait_ms: number }>`
    insert into pace_slots as p (family, next_at) values (${family}, clock_timestamp() + ${step})
    on conflict (family) do update set next_at = greatest(p.next_at, clock_timestamp()) + ${step}
    returning extract(epoch from (p.next_at - ${step})) * 1000 as start_ms,
      extract(epoch from (p.next_at - ${step} - clock_timestamp())) * 1000 as wait_ms`.execute(db);
  return { startMs: Number(rows[0]?.start_ms), waitMs: Math.max(0, Number(rows[0]?.wait_ms ?? 0)) };
}
