// The alert backfill's daily full pass reads every match again: an alert it knows already, that already
// says it was reconstructed with the same unchecked predicates, is not written again (no UPDATE reaches
// alert_history), while a webhook's alert still gains the reconstruction's times and an alert whose
// unchecked predicates changed is updated. Counted by a trigger on alert_history. SQLite and PostgreSQL.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Row } from '../../src/store/types.js';
import { writeReconstructedAlerts } from '../../src/sync/monitoring/reconstruct-alerts.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** An alert as reconstructAlerts makes it, read at `minute`. */
const alert = (development: string, minute: number, unchecked = ''): Row => ({
  view_id: 'view-a',
  event_id: 'e1',
  development_id: development,
  view_name: 'A',
  matched_at: at(1),
  first_seen_at: at(minute),
  source: 'backfill',
  webhook_at: null,
  backfill_at: at(minute),
  reconstructed_at: at(minute),
  unchecked_predicates: unchecked,
});

/** Every UPDATE of alert_history from now on, counted in alert_updates. */
async function countUpdates(t: TestStore, dialect: string): Promise<() => Promise<number>> {
  const db = t.store.db;
  await sql`create table alert_updates (development_id text)`.execute(db);
  if (dialect === 'sqlite') {
    await sql`create trigger count_updates after update on alert_history for each row
      begin insert into alert_updates values (new.development_id); end`.execute(db);
  } else {
    await sql`create function count_updates() returns trigger language plpgsql as $$
      begin insert into alert_updates values (new.development_id); return new; end $$`.execute(db);
    await sql`create trigger count_updates after update on alert_history for each row execute function count_updates()`.execute(db);
  }
  return async () => Number((await sql<{ n: number }>`select count(*) as n from alert_updates`.execute(db)).rows[0]!.n);
}

describe.each(dialects)('the backfill writing alerts it knows on %s', (dialect) => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('rewrites nothing a pass finds unchanged, and updates what it adds to', async () => {
    t = await openTestStore(dialect);
    const updates = await countUpdates(t, dialect);
    const inTx = (alerts: Row[]) => t.store.transaction((tx) => writeReconstructedAlerts(tx, 'view-a', alerts));

    expect(await inTx([alert('d1', 2), alert('d2', 2, 'assets')])).toBe(2);
    // The next day's full pass: the same alerts, read later.
    expect(await inTx([alert('d1', 3), alert('d2', 3, 'assets')])).toBe(0);
    expect(await updates()).toBe(0);

    // A webhook's alert (not yet reconstructed), and one whose unchecked predicates changed.
    await t.store.db
      .insertInto('alert_history')
      .values({
        ...alert('d3', 4),
        source: 'webhook',
        webhook_at: at(4),
        backfill_at: null,
        reconstructed_at: null,
        unchecked_predicates: null,
      })
      .execute();
    expect(await inTx([alert('d1', 5), alert('d2', 5), alert('d3', 5), alert('d4', 5)])).toBe(1);
    const rows = await t.store.db
      .selectFrom('alert_history')
      .select(['development_id', 'source', 'backfill_at', 'reconstructed_at', 'unchecked_predicates'])
      .orderBy('development_id')
      .execute();
    const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
    expect(rows.map((r) => [r.development_id, r.source, iso(r.backfill_at), iso(r.reconstructed_at), r.unchecked_predicates])).toEqual([
      ['d1', 'backfill', at(2), at(2), ''],
      ['d2', 'backfill', at(2), at(2), ''],
      ['d3', 'webhook', at(5), at(5), ''],
      ['d4', 'backfill', at(5), at(5), ''],
    ]);
    expect(
      (await sql<{ d: string }>`select development_id as d from alert_updates order by 1`.execute(t.store.db)).rows.map((r) => r.d),
    ).toEqual(['d2', 'd3']);
  });
});
