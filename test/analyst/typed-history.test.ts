// Typed history for every mirrored table (#24.5): a changed row of a table other than assets,
// market_stats and monitoring_events shows its previous version in its versions view with the values
// the table held (typed as the table or the view types them) and the run that ended it, on both stores;
// and every mirrored table has a versions view whose columns are the table's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { mirroredTables } from '../../schema/history/triggers.js';
import { ANALYST_VIEWS } from '../../schema/views/index.js';
import { tableHistoryViews } from '../../schema/views/table-history-views.js';
import { VERSION_COLUMNS } from '../../schema/views/view.js';
import type { Store } from '../../src/store/index.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const STREAMS = ['transparency', 'projects'];
const BOOKKEEPING = new Set(['raw', 'row_hash', 'first_seen_at', 'synced_at', 'deleted_at']);
type Row = Record<string, unknown>;
const VERSION_COLUMNS_NAMES = VERSION_COLUMNS.map((c) => c.name);

async function rowsById(store: Store, relation: string, ids: readonly number[]): Promise<Map<number, Row>> {
  const rows = (await store.db.selectFrom(relation).selectAll().where('id', 'in', ids).execute()) as Row[];
  return new Map(rows.map((r) => [Number(r.id), r]));
}
function without(row: Row | undefined, names: Iterable<string>): Row {
  const out = { ...row };
  for (const n of names) delete out[n];
  return out;
}

describe.each(dialects)('typed history on %s', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;

  beforeAll(async () => {
    sb = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 7 });
    t = await openTestStore(dialect);
    await syncOnce(t.store, sb, STREAMS);
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it('a changed row shows its previous version, typed, with the run that ended it', async () => {
    const report = await sb.advance({ seconds: 3600, updateFraction: 0.3, addFraction: 0, removeFraction: 0 });
    const ratings = report.resources.transparency!.updated.map(Number).slice(0, 5);
    const projects = report.resources.projects!.updated.map(Number).slice(0, 5);
    expect([ratings.length, projects.length]).toEqual([5, 5]);
    // What the store held before the change: the table's own typed columns, and the lifted view's.
    const ratingsBefore = await rowsById(t.store, 'transparency_ratings', ratings);
    const projectsBefore = await rowsById(t.store, 'v_projects', projects);

    const run = await syncOnce(t.store, sb, STREAMS);
    const ended = async (view: string, ids: number[]) =>
      (await t.store.db.selectFrom(view).selectAll().where('id', 'in', ids).where('valid_to', 'is not', null).execute()) as Row[];
    const ratingVersions = await ended('v_transparency_ratings_history', ratings);
    const projectVersions = await ended('v_projects_history', projects);
    expect(ratingVersions.map((r) => Number(r.id)).sort()).toEqual([...ratings].sort());
    expect(projectVersions.map((r) => Number(r.id)).sort()).toEqual([...projects].sort());

    for (const version of ratingVersions) {
      expect(without(version, VERSION_COLUMNS_NAMES)).toEqual(without(ratingsBefore.get(Number(version.id)), BOOKKEEPING));
      expect(typeof version.project_team_rating).toBe('number');
    }
    for (const version of projectVersions) {
      expect(without(version, VERSION_COLUMNS_NAMES)).toEqual(
        without(projectsBefore.get(Number(version.id)), ['first_seen_at', 'synced_at']),
      );
    }
    for (const version of [...ratingVersions, ...projectVersions]) {
      expect([version.change, Number(version.run_id), Number(version.ended_by_run_id)]).toEqual(['updated', 1, run.runId]);
    }
    // The current versions are the live rows, not yet ended.
    const current = (await t.store.db
      .selectFrom('v_transparency_ratings_history')
      .selectAll()
      .where('valid_to', 'is', null)
      .execute()) as Row[];
    const live = await rowsById(t.store, 'transparency_ratings', ratings);
    for (const id of ratings) {
      expect(
        without(
          current.find((r) => Number(r.id) === id),
          ['valid_from', 'run_id', 'valid_to', 'change', 'ended_by_run_id'],
        ),
      ).toEqual(without(live.get(id), BOOKKEEPING));
    }
  });

  it('every mirrored table has a versions view, and a table-typed one has exactly its columns', async () => {
    const mirrored = (await mirroredTables(t.store.db, dialect)).map((m) => m.name);
    expect(mirrored.length).toBeGreaterThan(20);
    expect(mirrored.filter((name) => !ANALYST_VIEWS.some((v) => v.versionsOf === name))).toEqual([]);

    const tables = await t.store.adapter.listTables();
    // SQLite declares fewer types (booleans are integers, JSON text): kinds are compared on PostgreSQL.
    const kind = (k: string) => (dialect === 'postgres' ? k : '');
    for (const view of tableHistoryViews) {
      const own = tables.find((x) => x.name === view.versionsOf)?.columns.filter((c) => !BOOKKEEPING.has(c.name)) ?? [];
      const declared = view.columns.filter((c) => !VERSION_COLUMNS_NAMES.includes(c.name));
      expect(declared.map((c) => `${c.name} ${kind(c.kind)}`)).toEqual(own.map((c) => `${c.name} ${kind(c.kind)}`));
    }
  });
});
