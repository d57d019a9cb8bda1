// @end-to-end
// (For its bound, not a sync: each case replays the mirror's migrations and makes its views, comments and
// history triggers, about a second of CPU between the test and the server, over a unit's 20 s at load 40.)
// A mirror made before migrations 0017-0018 kept its pass marks and its service's URL in stream_state
// under names no stream has, and a dead high_water column. Upgrading moves them to pass_marks and
// mirrored_service, so the next run still knows when the last full pass ran and which service it holds.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkService, recordService } from '../../src/sync/mirrored-service.js';
import { readMark } from '../../src/sync/monitoring/pass-marks.js';
import { MIGRATIONS_DIR, MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { runMigrations } from '../../src/store/run-migrations.js';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const TYPES: Record<Dialect, ColumnTypes> = {
  sqlite: {
    text: 'text',
    integer: 'integer',
    bigint: 'integer',
    double: 'real',
    boolean: 'integer',
    json: 'text',
    timestamp: 'text',
    serial: 'integer',
  },
  postgres: {
    text: 'text',
    integer: 'bigint',
    bigint: 'bigint',
    double: 'double precision',
    boolean: 'boolean',
    json: 'jsonb',
    timestamp: 'timestamptz',
    serial: 'bigserial',
  },
};
const BEFORE = '0017';
const UPDATED = '2026-11-01T08:00:00.000Z';

/** Applies the migrations older than `BEFORE` only: a folder of files that re-export them. */
async function migrateToBefore(t: TestStore): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-old-schema-'));
  try {
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}-.*\.ts$/.test(f) && f < BEFORE)) {
      writeFileSync(
        join(dir, file.replace(/\.ts$/, '.mjs')),
        `export { up } from ${JSON.stringify(pathToFileURL(join(MIGRATIONS_DIR, file)).href)};\n`,
      );
    }
    const outcome = await runMigrations(
      t.store.db,
      { dialect: t.store.dialect, columnTypes: TYPES[t.store.dialect], schema: t.schema },
      { ...MIRROR_SCHEMA, folder: `${dir}/` },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.results.at(-1)?.name).toBe('0016-view-keys');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(dialects)('upgrading stream_state on %s', (dialect) => {
  let t: TestStore;
  afterEach(() => t.cleanup());

  it('moves pass marks and the mirrored service to their tables and drops high_water', async () => {
    t = await openTestStore(dialect, { migrate: false });
    await migrateToBefore(t);
    const old = (stream: string, checkpoint: unknown, highWater: string | null = null) => ({
      stream,
      checkpoint: JSON.stringify(checkpoint),
      high_water: highWater,
      updated_at: UPDATED,
    });
    await t.store.db
      .insertInto('stream_state')
      .values([
        { ...old('assets', { assetClass: 'token', page: 3 }, '2025-01-01'), last_success_at: UPDATED },
        old('monitoring-events:full-pass', { fullAt: '2026-10-31T00:00:00.000Z', highWater: null }),
        old('monitoring-views:view-1', { fullAt: '2026-10-30T00:00:00.000Z', highWater: '2026-10-29T12:00:00.000Z' }),
        old('monitoring-views:view-2', { fullAt: null, highWater: '2026-10-28T12:00:00.000Z' }),
        old('mirror:service', { baseUrl: 'http://127.0.0.1:4010' }),
      ])
      .execute();

    const upgrade = await t.store.migrate();
    expect(upgrade.error).toBeUndefined();
    // 0017 and 0018 first, then whatever later migrations exist, all applied.
    expect(upgrade.results.slice(0, 2)).toEqual([
      { name: '0017-state-tables', status: 'Success' },
      { name: '0018-drop-high-water', status: 'Success' },
    ]);
    expect(upgrade.results.every((r) => r.status === 'Success')).toBe(true);

    expect(await readMark(t.store, { stream: 'monitoring-events', part: 'full-pass' })).toEqual({
      fullAt: '2026-10-31T00:00:00.000Z',
      highWater: null,
    });
    expect(await readMark(t.store, { stream: 'monitoring-views', part: 'view-1' })).toEqual({
      fullAt: '2026-10-30T00:00:00.000Z',
      highWater: '2026-10-29T12:00:00.000Z',
    });
    expect(await readMark(t.store, { stream: 'monitoring-views', part: 'view-2' })).toEqual({
      fullAt: null,
      highWater: '2026-10-28T12:00:00.000Z',
    });
    expect(await readMark(t.store, { stream: 'monitoring-views', part: 'view-3' })).toEqual({ fullAt: null, highWater: null });

    // Only real streams are left in stream_state, with their checkpoint, and no high_water column.
    const states = await t.store.db.selectFrom('stream_state').selectAll().execute();
    expect(states.map((s) => s.stream)).toEqual(['assets']);
    // Later migrations may add columns (0037 added last_notice); what 0018 promises is that high_water is gone.
    const columns = Object.keys(states[0]);
    expect(columns).toEqual(expect.arrayContaining(['checkpoint', 'last_error', 'last_run_id', 'last_success_at', 'stream', 'updated_at']));
    expect(columns).not.toContain('high_water');
    expect((await t.store.getState('assets'))?.checkpoint).toEqual({ assetClass: 'token', page: 3 });

    // The service recorded before the upgrade is still the one this mirror holds.
    await expect(checkService(t.store, 'http://127.0.0.1:4010/')).resolves.toBeUndefined();
    await expect(checkService(t.store, 'http://127.0.0.1:4011')).rejects.toThrow(/this mirror holds http:\/\/127\.0\.0\.1:4010/);
    await recordService(t.store, 'http://127.0.0.1:4011', true);
    expect(await t.store.db.selectFrom('mirrored_service').select('base_url').execute()).toEqual([{ base_url: 'http://127.0.0.1:4011' }]);
  });
});
