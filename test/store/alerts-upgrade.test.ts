// @end-to-end
// (For its bound, not a sync: each case replays the mirror's migrations and makes its views, comments and
// history triggers, about a second of CPU between the test and the server, over a unit's 20 s at load 40.)
// A mirror made before migration 0038 kept one alert per (view, event), and one delivery row per id
// naming only the first view. Upgrading loses no alert: every old row is an alert of its development,
// the second development a delivery brought (whose alert the old key dropped) becomes one again, a
// webhook for an alert a backfill held first says both ways, and every (delivery, view) pair is kept.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/mirror-schema/index.js';
import { ColumnTypesMigrationProvider, schemaMigrator } from '../../src/store/run-migrations.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const UPGRADE = '0038';

/**
 * Applies the migrations before `UPGRADE` only (a folder of files that re-export them), as a mirror of
 * that release had them: without today's analyst views, which read the new columns.
 */
async function migrateBeforeUpgrade(t: TestStore): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-alerts-schema-'));
  try {
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}-.*\.ts$/.test(f) && f < UPGRADE)) {
      const target = pathToFileURL(join(MIGRATIONS_DIR, file)).href;
      writeFileSync(join(dir, file.replace(/\.ts$/, '.mjs')), `export { up } from ${JSON.stringify(target)};\n`);
    }
    const { adapter } = t.store;
    const migrator = schemaMigrator(t.store.db, new ColumnTypesMigrationProvider(`${dir}/`, adapter), adapter);
    const { results, error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    return results?.at(-1)?.migrationName;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const V = { a: 'view-a', b: 'view-b' };
const E = { one: 'event-1', two: 'event-2', three: 'event-3' };
const D = { first: 'dev-1a', second: 'dev-1b', two: 'dev-2' };
const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;

function delivery(id: string, view: string, event: string, development: string, minute: number) {
  return {
    id,
    view_id: view,
    view_name: `name of ${view}`,
    event_id: event,
    development_id: development,
    type: 'monitoring_event',
    event_timestamp: at(minute).replace('.000Z', 'Z'),
    signed: true,
    body: '{}',
    received_at: at(minute + 1),
  };
}

describe.each(dialects)('upgrading alert history to one alert per development on %s', (dialect) => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('keeps every old alert, recovers the dropped ones and every (delivery, view) pair', async () => {
    t = await openTestStore(dialect, { migrate: false });
    expect(await migrateBeforeUpgrade(t)).toBe('0037-run-notices');
    const bool = dialect === 'sqlite' ? 1 : true;
    await t.store.db
      .insertInto('webhook_deliveries')
      .values([
        // X reached views a and b (the row names a only); Y is event 1's second development, which the old key dropped.
        { ...delivery('X', V.a, E.one, D.first, 1), signed: bool },
        { ...delivery('Y', V.a, E.one, D.second, 5), signed: bool },
        // Z came after a backfill had stored its alert.
        { ...delivery('Z', V.a, E.two, D.two, 20), signed: bool },
      ])
      .execute();
    const old = (view: string, event: string, source: string, delivery: string | null, development: string | null, minute: number) => ({
      view_id: view,
      event_id: event,
      first_seen_at: at(minute + 1),
      source,
      delivery_id: delivery,
      development_id: development,
      matched_at: at(minute),
      view_name: `name of ${view}`,
    });
    await t.store.db
      .insertInto('alert_history')
      .values([
        old(V.a, E.one, 'webhook', 'X', D.first, 1),
        old(V.b, E.one, 'webhook', 'X', D.first, 1),
        old(V.a, E.two, 'backfill', null, D.two, 10),
        old(V.a, E.three, 'backfill', null, null, 12),
      ])
      .execute();

    const upgrade = await t.store.migrate();
    // 0038 first; later migrations may follow it.
    expect([upgrade.error, upgrade.results[0]?.name]).toEqual([undefined, '0038-alerts-per-development']);
    expect(upgrade.results.every((r) => r.status === 'Success')).toBe(true);

    const alerts = (await t.store.db.selectFrom('v_alerts').selectAll().execute()) as Record<string, any>[];
    const shown = alerts.map((a) => [a.view_id, a.event_id, a.development_id, a.source, a.arrived_by, a.delivery_ids].join(' ')).sort();
    expect(shown).toEqual([
      `${V.a} ${E.one} ${D.first} webhook webhook X`,
      `${V.a} ${E.one} ${D.second} webhook webhook Y`,
      `${V.a} ${E.two} ${D.two} backfill both Z`,
      `${V.a} ${E.three}  backfill backfill `,
      `${V.b} ${E.one} ${D.first} webhook webhook X`,
    ]);
    const times = (view: string, development: string) => alerts.find((a) => a.view_id === view && a.development_id === development)!;
    const iso = (v: unknown) => (v === null ? null : new Date(v as string).toISOString());
    const recovered = times(V.a, D.second);
    expect([iso(recovered.matched_at), iso(recovered.learned_at), iso(recovered.webhook_at)]).toEqual([at(5), at(6), at(6)]);
    const both = times(V.a, D.two);
    expect([iso(both.matched_at), iso(both.backfill_at), iso(both.webhook_at)]).toEqual([at(20), at(11), at(21)]);
    const pairs = await t.store.db.selectFrom('alert_deliveries').select(['delivery_id', 'view_id']).execute();
    expect(pairs.map((p) => `${p.delivery_id} ${p.view_id}`).sort()).toEqual([`X ${V.a}`, `X ${V.b}`, `Y ${V.a}`, `Z ${V.a}`]);
  });
});
