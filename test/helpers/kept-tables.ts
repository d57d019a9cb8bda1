// The tables the store's triggers keep (alert_days, asset_crosswalk) must hold what counting them afresh
// gives, whatever wrote their sources: compared here with a count of v_alerts and a crosswalk computed
// again from its sources.
import { expect } from 'vitest';
import { refillCrosswalk } from '../../schema/migrations/0060-asset-crosswalk-table.js';
import type { Store } from '../../src/store/index.js';
import { expectAlertDaysCurrent } from './alert-days.js';

async function crosswalkRows(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom('asset_crosswalk').selectAll().orderBy('source').orderBy('source_asset_id').execute();
  return rows.map((r) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k,
          typeof v === 'bigint' || (typeof v === 'string' && k !== 'source_asset_id' && /^-?\d+(\.\d+)?$/.test(v)) ? Number(v) : v,
        ]),
      ),
    ),
  );
}

/** Asserts the crosswalk the triggers kept is the one computed afresh (which it then holds); returns its rows. */
export async function expectCrosswalkCurrent(store: Store): Promise<number> {
  const kept = await crosswalkRows(store);
  await refillCrosswalk(store.db, store.dialect);
  const afresh = await crosswalkRows(store);
  expect(afresh.length).toBeGreaterThan(0);
  expect(kept).toEqual(afresh);
  return afresh.length;
}

/** Both kept tables current; returns the alerts and crosswalk rows they cover. */
export async function expectKeptTablesCurrent(store: Store): Promise<{ alerts: number; crosswalk: number }> {
  return { alerts: await expectAlertDaysCurrent(store), crosswalk: await expectCrosswalkCurrent(store) };
}
