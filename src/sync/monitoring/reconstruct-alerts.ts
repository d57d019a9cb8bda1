// The alerts a page of a view's matching events stands for: one per (view, development) that the view's
// own predicates accept, as a webhook would have brought it, never one per event. A development started
// before `since` is left out (counted); an alert a webhook or an earlier backfill brought first is kept,
// and says that a reconstruction found it too, with what it could not check.
import type { Row, StoreTx } from '../../store/types.js';
import { boundMillis } from '../../requests/time-bound.js';
import { evaluateDevelopment } from './view-predicates.js';

type Json = Record<string, unknown>;

/** What the developments of a page came to. */
export interface PageAlerts {
  alerts: Row[];
  /** Developments the view's predicates exclude. */
  excluded: number;
  /** Developments started before `since` (not evaluated). */
  beforeSince: number;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** alert_history rows of the developments of `events` (each with an id) that `view` alerts for. */
export function reconstructAlerts(view: Json, events: readonly Json[], since: number | null, now: string): PageAlerts {
  const out: PageAlerts = { alerts: [], excluded: 0, beforeSince: 0 };
  for (const event of events) {
    const assets = Array.isArray(event.assets) ? event.assets.filter(isObject) : null;
    const developments: Json[] = Array.isArray(event.developments) ? event.developments.filter(isObject) : [];
    for (const d of developments) {
      if (typeof d.id !== 'string') continue;
      const started = boundMillis(d.startedAt);
      if (since !== null && (started === null || started < since)) {
        out.beforeSince++;
        continue;
      }
      const verdict = evaluateDevelopment(view, d, assets);
      if (!verdict.matches) {
        out.excluded++;
        continue;
      }
      out.alerts.push({
        view_id: String(view.id),
        event_id: event.id,
        development_id: d.id,
        view_name: typeof view.name === 'string' ? view.name : null,
        // The match happened when its development started, not when the backfill read it.
        matched_at: started === null ? null : new Date(started).toISOString(),
        first_seen_at: now,
        source: 'backfill',
        webhook_at: null,
        backfill_at: now,
        reconstructed_at: now,
        unchecked_predicates: verdict.unchecked.join(','),
      });
    }
  }
  return out;
}

const KEY = ['view_id', 'event_id', 'development_id'] as const;
/** Rows per statement: 12 parameters each, within SQLite's 32,766 and PostgreSQL's 65,535. */
const CHUNK = 1000;

/**
 * New alerts inserted; those known before (a webhook's, an older backfill's) gain the reconstruction's
 * time and its unchecked predicates, and keep everything else. Returns how many were new. A known alert
 * that already says all that is not written again: the daily full pass reads every match, and
 * rewriting each unchanged alert (a page and its indexes per row) was most of that pass's writes.
 */
export async function writeReconstructedAlerts(tx: StoreTx, viewId: string, alerts: readonly Row[]): Promise<number> {
  const eventIds = [...new Set(alerts.map((a) => String(a.event_id)))];
  const existing = await tx.db
    .selectFrom('alert_history')
    .select(['event_id', 'development_id', 'reconstructed_at', 'backfill_at', 'unchecked_predicates'])
    .where('view_id', '=', viewId)
    .where('event_id', 'in', eventIds)
    .execute();
  const known = new Map(existing.map((r) => [`${r.event_id}|${r.development_id}`, r]));
  const isNew = (a: Row) => !known.has(`${a.event_id}|${a.development_id}`);
  const toWrite = alerts.filter((a) => {
    const stored = known.get(`${a.event_id}|${a.development_id}`);
    return (
      !stored || stored.reconstructed_at == null || stored.backfill_at == null || stored.unchecked_predicates !== a.unchecked_predicates
    );
  });
  for (let i = 0; i < toWrite.length; i += CHUNK) {
    await tx.db
      .insertInto('alert_history')
      .values(toWrite.slice(i, i + CHUNK) as Row[])
      .onConflict((oc) =>
        oc.columns([...KEY]).doUpdateSet((eb) => ({
          reconstructed_at: eb.fn.coalesce('alert_history.reconstructed_at', eb.ref('excluded.reconstructed_at')),
          backfill_at: eb.fn.coalesce('alert_history.backfill_at', eb.ref('excluded.backfill_at')),
          unchecked_predicates: eb.ref('excluded.unchecked_predicates'),
        })),
      )
      .execute();
  }
  return alerts.filter(isNew).length;
}
