// A mirror made before reconstruction (migration 0048) keeps every alert: a webhook's stays a webhook's,
// an old per-event backfill's says 'event-match' (its development was never checked against the view),
// and neither claims a reconstruction or an unchecked list it never had. A view's pass mark gains an
// empty list size. SQLite and PostgreSQL.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/mirror-schema/index.js';
import { ColumnTypesMigrationProvider, schemaMigrator } from '../../src/store/run-migrations.js';
import { readMark } from '../../src/sync/monitoring/pass-marks.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const UPGRADE = '0048';

/** Applies the migrations before UPGRADE only, as a mirror of that release had them (no analyst views). */
async function migrateBeforeUpgrade(t: TestStore): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-reconstructed-'));
  try {
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}-.*\.ts$/.test(f) && f < UPGRADE)) {
      const target = pathToFileURL(join(MIGRATIONS_DIR, file)).href;
      writeFileSync(join(dir, file.replace(/\.ts$/, '.mjs')), `export { up } from ${JSON.stringify(target)};\n`);
    }
    const { adapter } = t.store;
    const migrator = schemaMigrator(t.store.db, new ColumnTypesMigrationProvider(`${dir}/`, adapter), adapter);
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe.each(dialects)('upgrading alerts to reconstruction on %s', (dialect) => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it("keeps every alert, and says which were per-event backfills ('event-match')", async () => {
    t = await openTestStore(dialect, { migrate: false });
    await migrateBeforeUpgrade(t);
    const alert = (event: string, development: string, source: string, webhook: number | null, backfill: number | null) => ({
      view_id: 'view-a',
      event_id: event,
      development_id: development,
      view_name: 'A',
      matched_at: at(1),
      first_seen_at: at(2),
      source,
      webhook_at: webhook === null ? null : at(webhook),
      backfill_at: backfill === null ? null : at(backfill),
    });
    await t.store.db
      .insertInto('alert_history')
      .values([
        alert('e1', 'd1', 'webhook', 3, null),
        alert('e2', 'd2', 'backfill', null, 4),
        alert('e3', 'd3', 'backfill', 6, 5),
        alert('e4', '', 'backfill', null, 7),
      ])
      .execute();
    await t.store.db
      .insertInto('pass_marks')
      .values({ stream: 'monitoring-views', part: 'view-a', full_pass_at: at(8), high_water: at(1), updated_at: at(8) })
      .execute();

    const upgrade = await t.store.migrate();
    expect([upgrade.error, upgrade.results[0]?.name]).toEqual([undefined, '0048-reconstructed-alerts']);
    expect(upgrade.results.every((r) => r.status === 'Success')).toBe(true);

    const shown = await t.store.db
      .selectFrom('v_alerts')
      .select(['event_id', 'development_id', 'arrived_by', 'known_by', 'reconstructed_at', 'unchecked_predicates'])
      .orderBy('event_id')
      .execute();
    expect(shown.map((a) => [a.event_id, a.development_id, a.arrived_by, a.known_by, a.reconstructed_at, a.unchecked_predicates])).toEqual([
      ['e1', 'd1', 'webhook', 'webhook', null, null],
      ['e2', 'd2', 'backfill', 'event-match', null, null],
      ['e3', 'd3', 'both', 'webhook', null, null],
      ['e4', null, 'backfill', 'event-match', null, null],
    ]);
    expect(await readMark(t.store, { stream: 'monitoring-views', part: 'view-a' })).toEqual({
      fullAt: expect.anything(),
      highWater: expect.anything(),
    });
  });
});
