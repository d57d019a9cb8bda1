// Which development details a run requests (one request each): the pending developments (new, or whose
// summary changed) that matter: a webhook named them, or importance at or above a minimum and started
// within maxAgeDays; the webhooks' first, then newest first, at most maxPerRun a run.
import { sql, type RawBuilder } from 'kysely';
import type { Store } from '../store/types.js';
import type { DetailsBacklog } from './run-settings.js';

export interface PendingDetail {
  id: string;
  row_hash: string;
}

export const IMPORTANCE = ['not-important', 'low', 'medium', 'high'] as const;

/** The backlog by default: what an analyst acts on first, drained at about one run's worth of a minute's rate. */
export const DEFAULT_DETAILS: DetailsBacklog = { minimumImportance: 'high', maxAgeDays: 30, maxPerRun: 200 };

/** Pending details the backlog covers (`in scope`), and all pending ones, for `status`. */
export async function detailsBacklog(store: Store, backlog: DetailsBacklog): Promise<{ inScope: number; pending: number }> {
  const count = async (scoped: DetailsBacklog | null) => {
    const q = (await pendingQuery(store, scoped)).select((eb) => eb.fn.countAll().as('n'));
    const row = (await q.executeTakeFirst()) as { n: unknown } | undefined;
    return Number(row?.n ?? 0);
  };
  return { inScope: await count(backlog), pending: await count(null) };
}

/**
 * "Recent" is counted back from the newest development mirrored, not from the machine's clock: the
 * backlog means the same whatever the clock says, and a mirror that fell behind still gets its newest.
 * A development a webhook named is in scope whatever its importance and age: a view's alert asked for it.
 */
async function pendingQuery(store: Store, backlog: DetailsBacklog | null) {
  const q = store.db.selectFrom('monitoring_developments').where('detail_fetched_at', 'is', null).where('deleted_at', 'is', null);
  if (!backlog) return q;
  const important = IMPORTANCE.slice(IMPORTANCE.indexOf(backlog.minimumImportance));
  const since = backlog.maxAgeDays === null ? null : await recentSince(store, backlog.maxAgeDays);
  return q.where((eb) => {
    const inScope = eb.and([eb('importance', 'in', important), ...(since === null ? [] : [eb('started_at', '>=', since)])]);
    return eb.or([namedByWebhook(), inScope]);
  });
}

/** Whether a webhook delivery named the development (alert_deliveries, indexed by development). */
function namedByWebhook(): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from alert_deliveries p where p.development_id = monitoring_developments.id)`;
}

/** The start of the backlog's age window, or null when nothing is mirrored yet. */
async function recentSince(store: Store, maxAgeDays: number): Promise<string | null> {
  const newest = (await store.db
    .selectFrom('monitoring_developments')
    .select((eb) => eb.fn.max('started_at').as('at'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as { at: unknown } | undefined;
  if (newest?.at == null) return null;
  return new Date(new Date(String(newest.at)).getTime() - maxAgeDays * 86_400_000).toISOString().replace('.000Z', 'Z');
}

/** The pending details this run fetches: the ones webhooks named first, then newest first, at most maxPerRun. */
export async function pendingDetails(store: Store, backlog: DetailsBacklog): Promise<PendingDetail[]> {
  return (await (
    await pendingQuery(store, backlog)
  )
    .select(['id', 'row_hash'])
    .orderBy(sql`case when ${namedByWebhook()} then 0 else 1 end`)
    .orderBy('started_at', 'desc')
    .orderBy('id')
    .limit(backlog.maxPerRun)
    .execute()) as PendingDetail[];
}
