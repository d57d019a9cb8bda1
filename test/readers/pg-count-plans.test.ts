// A dashboard counts every view it shows. PostgreSQL counts a view without computing its columns only when it
// flattens the view into the count; a view it cannot flatten (one with a WITH, for instance) is scanned as a
// subquery that forms a row of nulls per counted row: `v_alerts`, with its repeated names in a WITH, took
// 166 ms of CPU to count 920,000 alerts against 67 ms for alert_history's own count (bench/RESULTS.md). So:
// every view whose count is a count of its rows is flattened into it (EXPLAIN VERBOSE shows no null placeholder),
// and a versions view's count reads no kept version's record.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

/** Views whose count must form rows, and why that stays small. */
const FORMED: Readonly<Record<string, string>> = {
  v_alerts_per_day: 'groups alert_days (a row per view, day and way: thousands, not the million alerts)',
  v_usage: 'a running sum per family and month over usage_ledger (a row per family and day)',
  v_streams: 'a UNION ALL of about thirty counts, one per stream table (as status counts)',
};

describe('counting a view on PostgreSQL', () => {
  let t: TestStore;
  const plans = new Map<string, string>();

  beforeAll(async () => {
    t = await openTestStore('postgres');
    for (const view of ANALYST_VIEWS) {
      const { rows } = await sql
        .raw<{ 'QUERY PLAN': string }>(`explain (verbose, costs off) select count(*) from ${view.name}`)
        .execute(t.store.db);
      plans.set(view.name, rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
  });
  afterAll(() => t?.cleanup());

  // A versions view is a UNION ALL of the live rows and the kept versions: each branch passes its columns.
  it.each(
    ANALYST_VIEWS.filter((v) => !FORMED[v.name] && !v.versionsOf).map((v) => v.name),
  )('%s is flattened into its count: no row of nulls per counted row', (name) => {
    expect(plans.get(name)).not.toMatch(/NULL::/);
  });

  // A kept version's own columns are read back from row_history.typed_row: a lateral join of
  // jsonb_populate_record populated every version's record to count them (v_developments_history: 953 ms
  // of CPU for 233,000 versions), where a count needs none of its columns.
  it.each(ANALYST_VIEWS.filter((v) => v.versionsOf).map((v) => v.name))('%s counts without reading a kept version', (name) => {
    expect(plans.get(name)).not.toMatch(/jsonb_populate_record|Function Scan|typed_row|\braw\b/);
  });

  it('counts v_alerts as alert_history is counted', () => {
    expect(plans.get('v_alerts')).toMatch(/Scan (using \w+ )?on \w+\.alert_history/);
    expect(plans.get('v_alerts')).not.toMatch(/monitoring_views|alert_days|alert_deliveries/);
  });
});
