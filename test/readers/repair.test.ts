// A mirror written by an older ds-mirror, whose v_alerts used string_agg(... order by ...) (SQLite 3.44),
// could not be opened by older readers at all. The next open by ds-mirror makes the analyst views again
// (their definition changed), after which the system's sqlite3 tool opens it.
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SQLITE_ANALYST_SQL } from '../../src/store/sqlite/sqlite-analyst-sql.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

const CARRIED = 'from alert_deliveries p where p.development_id = a.development_id and p.view_id = a.view_id and p.event_id = a.event_id';
const ORDER = 'p.received_at, p.delivery_id';

function systemSqlite(file: string, query: string): { ok: boolean; stderr: string } {
  const r = spawnSync('sqlite3', [file, query], { encoding: 'utf8' });
  if (r.error) throw new Error(`sqlite3 is not runnable (${r.error.message}): install it (apt-get install sqlite3)`);
  return { ok: r.status === 0 && r.stderr === '', stderr: r.stderr };
}

/** Puts back v_alerts as the release before wrote it, with that release's (another) definition hash. */
function writeOldAlertsView(file: string): void {
  const db = new Database(file);
  try {
    const now = String(db.prepare(`select sql from sqlite_master where name = 'v_alerts'`).pluck().get());
    const listed = SQLITE_ANALYST_SQL.orderedList('p.delivery_id', CARRIED, ORDER);
    expect(now).toContain(listed);
    const old = now.replace(listed, `(select string_agg(p.delivery_id, ',' order by ${ORDER}) ${CARRIED})`);
    db.exec(`drop view v_alerts; ${old}`);
    db.prepare(`update schema_objects set definition_hash = 'of an older release' where name = 'analyst-layer'`).run();
  } finally {
    db.close();
  }
}

describe('a mirror written by an older ds-mirror', () => {
  let t: TestStore;
  beforeEach(async () => {
    t = await openTestStore('sqlite');
  });
  afterEach(() => t.cleanup());

  it('opens in the system sqlite3 after one open by ds-mirror', async () => {
    await t.store.close();
    const file = t.url.slice('sqlite:'.length);
    writeOldAlertsView(file);
    const before = systemSqlite(file, 'select count(*) from assets');
    expect(before).toMatchObject({ ok: false, stderr: expect.stringContaining('malformed database schema (v_alerts)') });

    await (await t.openAnother()).close();

    expect(systemSqlite(file, 'select count(*) from assets')).toEqual({ ok: true, stderr: '' });
    expect(systemSqlite(file, 'select count(*) from v_alerts')).toEqual({ ok: true, stderr: '' });
  });
});
