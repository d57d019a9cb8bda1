// A dashboard counts every view it shows. SQLite before 3.42 (Debian 12 and Python link 3.40) computes every
// column of every row to count a UNION ALL, and evaluates a column's correlated subquery for each row when
// the view is not flattened into the count: counting 20,000 assets took 0.8 s there against 2 ms in the
// bundled 3.53 (bench/RESULTS.md). So, read in the operating system's SQLite through Python as an analyst
// would: no view's count runs a subquery per row, and the only UNION ALL a count reads is a versions view's
// `v`, which passes what indexes hold (a key, the rowid, the end of a kept version: schema/views/view.ts)
// and reads no table row (a year's mirror read 0.4-1 s of raw and times to count them: bench/RESULTS.md).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYST_VIEWS, createViewSql } from '../../schema/views/index.js';
import { streamTables } from '../../src/catalog/index.js';
import { SQLITE_ANALYST_SQL } from '../../src/store/sqlite/sqlite-analyst-sql.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

/** Views whose count must compute something, and why that stays small. */
const COMPUTED: Readonly<Record<string, string>> = {
  v_alerts_per_day: 'groups alert_days (a row per view, day and way: thousands, not the million alerts)',
  v_usage: 'a running sum per family and month over usage_ledger (a row per family and day)',
  v_jobs: 'looks up the last runs of each configured job (about ten rows)',
  v_streams: 'counts the live rows of each stream table once (about thirty counts, as status does)',
  v_runs: 'sums sync_run_streams per run once, then joins it (a row per run and stream, no per-row subquery)',
};

const PYTHON = `
import json, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
out = {'version': sqlite3.sqlite_version, 'plans': {}}
# Indexes of the live rows alone: a scan of one reads no table row for a rowid and the WHERE it implies.
out['liveIndexes'] = [r[0] for r in con.execute("select name from sqlite_master where type = 'index' and sql like '%where%deleted_at% is null%'")]
for name in json.loads(sys.argv[2]):
    out['plans'][name] = [r[3] for r in con.execute('explain query plan select count(*) from "%s"' % name)]
print(json.dumps(out))
`;

describe("counting a view in the operating system's SQLite (Python's sqlite3)", () => {
  let t: TestStore;
  let plans: Record<string, string[]>;
  let version: string;
  let liveIndexes: string[];

  beforeAll(async () => {
    t = await openTestStore('sqlite');
    await t.store.close();
    const names = ANALYST_VIEWS.map((v) => v.name);
    const r = spawnSync('python3', ['-c', PYTHON, t.url.slice('sqlite:'.length), JSON.stringify(names)], { encoding: 'utf8' });
    if (r.error) throw new Error(`python3 is not runnable (${r.error.message}): install it (apt-get install python3)`);
    expect(r.stderr).toBe('');
    ({ plans, version, liveIndexes } = JSON.parse(r.stdout) as { plans: Record<string, string[]>; version: string; liveIndexes: string[] });
  });
  afterAll(() => t?.cleanup());

  it('is an old SQLite, one without the omission of unused subquery columns (3.42)', () => {
    const [major, minor] = version.split('.').map(Number);
    expect(major === 3 && minor! < 42, `python3 links SQLite ${version}`).toBe(true);
  });

  it.each(
    ANALYST_VIEWS.filter((v) => !COMPUTED[v.name]).map((v) => [v.name, Boolean(v.versionsOf)] as const),
  )('%s: the count runs no subquery per row and reads no computed UNION ALL', (name, versions) => {
    const plan = plans[name]!;
    expect(plan.filter((step) => /SUBQUERY \d|CORRELATED|LIST SUBQUERY|MATERIALIZE/.test(step))).toEqual([]);
    const coroutines = plan.filter((step) => step.startsWith('CO-ROUTINE'));
    expect(coroutines).toEqual(versions ? ['CO-ROUTINE v'] : []);
    if (versions) {
      const reads = plan.filter((step) => /^(SCAN|SEARCH) [rh]\b/.test(step));
      expect(reads).toHaveLength(2);
      const fromIndex = (step: string) =>
        / USING COVERING INDEX /.test(step) || liveIndexes.includes(/ USING INDEX (\w+)/.exec(step)?.[1] ?? '');
      expect(reads.filter((step) => !fromIndex(step))).toEqual([]);
    }
  });

  it('passes a live row of a versions view as its index holds it, every other column looked up by rowid', () => {
    for (const view of ANALYST_VIEWS.filter((v) => v.versionsOf)) {
      const text = createViewSql(view, SQLITE_ANALYST_SQL, { streamTables: streamTables() });
      const live = new RegExp(`select ([^()]*?)\\s+from ${view.versionsOf} r where r\\.deleted_at is null`).exec(text);
      expect(live, view.name).not.toBeNull();
      const wrong = live![1]!.split(', ').filter((c) => !/^(r\.\w+|null|1) as \w+$/.test(c.trim()));
      expect(wrong, view.name).toEqual([]);
    }
  });

  // A filter, sort or group over a live view computed its columns from raw for every row: an event's raw is
  // ~5 KB, and SQLite 3.40 parses it again for each json_extract (example 03 took 1 s at scale 10). The
  // live views read the columns the sync stored instead (LiftedColumn.live); their values are checked
  // against the lifts of raw in test/analyst/views.test.ts.
  it.each(['v_assets', 'v_events', 'v_developments'])('%s reads stored columns, no raw', (name) => {
    const view = ANALYST_VIEWS.find((v) => v.name === name)!;
    expect(createViewSql(view, SQLITE_ANALYST_SQL, { streamTables: streamTables() })).not.toMatch(/\braw\b/);
  });
});
