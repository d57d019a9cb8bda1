// @end-to-end
// docs/analyst.md's recipes for an ordered list per group (each day's 8-K filers in name order, as one
// text), run as the doc gives them on one mirrored sandbox: the SQLite ones in Python's sqlite3 (3.40),
// in SQLite 3.36 (older than the 3.37 the docs promise) and in the bundled SQLite, the PostgreSQL one in
// psql; every reader gives every day's list, in byte order of the names (ties by accession number).
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { syncOnce } from '../helpers/mirror.js';
import { pythonSqliteVersion, readerRows } from '../helpers/reader-queries.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';
import { openOldCopy } from '../readers/old-sqlite.js';

const DOC = readFileSync(new URL('../../docs/analyst.md', import.meta.url), 'utf8');

/** The SQL block of docs/analyst.md whose first line is `-- ordered list: <name>`. */
function recipe(name: string): string {
  const block = [...DOC.matchAll(/```sql\n(-- ordered list: [^\n]*\n[\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((b) => b.startsWith(`-- ordered list: ${name}`));
  if (!block) throw new Error(`docs/analyst.md has no recipe "${name}"`);
  return block;
}

type Lists = Record<string, string>;
const asLists = (rows: readonly Record<string, unknown>[]): Lists =>
  Object.fromEntries(rows.map((r) => [String(r.filing_date).slice(0, 10), String(r.companies)]));

describe('an ordered list per group, from SQLite 3.37', () => {
  let sb: Sandbox;
  let lite: TestStore;
  let pg: TestStore;
  let truth: Lists;

  beforeAll(async () => {
    // Scale 0.75, seed 4: 750 filings, 9 days with several 8-K filers (scale 2, seed 8 had 35 in 2,000
    // filings; neither has a day whose names a collation would order otherwise than bytes do).
    sb = await startSandbox({ start: PINNED_START, scale: 0.75, seed: 4 });
    [lite, pg] = [await openTestStore('sqlite'), await openTestStore('postgres')];
    for (const t of [lite, pg]) expect((await syncOnce(t.store, sb, ['sec-filings'])).outcome).toBe('success');
    // The lists computed here from the filings themselves: names in byte order, ties by accession number.
    const filings = readerRows(
      lite,
      `select filing_date, company, accession_number from v_sec_filings where form_type = '8-K' and company is not null`,
    );
    const byDay = new Map<string, { company: string; accession: string }[]>();
    for (const f of filings) {
      const day = String(f.filing_date);
      byDay.set(day, [...(byDay.get(day) ?? []), { company: String(f.company), accession: String(f.accession_number) }]);
    }
    const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    truth = Object.fromEntries(
      [...byDay].map(([day, fs]) => [
        day,
        fs
          .sort((a, b) => bytes(a.company, b.company) || bytes(a.accession, b.accession))
          .map((f) => f.company)
          .join(', '),
      ]),
    );
  }, 300_000);
  afterAll(async () => {
    await lite?.cleanup();
    await pg?.cleanup();
    await sb?.close();
  });

  it('has days with several 8-K filers to order', () => {
    expect(Object.values(truth).filter((l) => l.includes(', ')).length).toBeGreaterThan(5);
  });

  it.each(['recursive', 'group_concat'])('the %s recipe in Python (SQLite 3.40), 3.36 and the bundled SQLite', async (name) => {
    expect(pythonSqliteVersion()).toMatch(/^3\./);
    const sql = recipe(name);
    expect(asLists(readerRows(lite, sql))).toEqual(truth);
    const file = lite.url.replace(/^sqlite:/, '');
    const bundled = new Database(file, { readonly: true });
    try {
      expect(asLists(bundled.prepare(sql).all() as Record<string, unknown>[])).toEqual(truth);
    } finally {
      bundled.close();
    }
    await lite.store.close();
    const old = await openOldCopy(file);
    try {
      const [result] = old.exec(sql);
      expect(asLists(result.values.map((v) => Object.fromEntries(result.columns.map((c, i) => [c, v[i]]))))).toEqual(truth);
    } finally {
      old.close();
      lite.store = await lite.openAnother();
    }
  });

  it('the PostgreSQL form in psql, and the recursive one there too', () => {
    expect(asLists(readerRows(pg, recipe('PostgreSQL')))).toEqual(truth);
    // The recursive recipe is plain SQL: on PostgreSQL it orders by the database's collation.
    expect(Object.keys(asLists(readerRows(pg, recipe('recursive')))).sort()).toEqual(Object.keys(truth).sort());
  });
});
