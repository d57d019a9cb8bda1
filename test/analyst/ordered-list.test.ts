// @end-to-end
// docs/analyst.md's recipes for an ordered list per group (each day's 8-K filers in name order, as one
// text), run as the doc gives them on one mirrored sandbox: the SQLite ones in Python's sqlite3 (3.40),
// in SQLite 3.36 (older than the 3.37 the docs promise) and in the bundled SQLite, the PostgreSQL one in
// psql; every reader gives every day's list, in byte order of the names (ties by accession number). The
// sandbox's names are all capitalised alike, so one made-up day of filers whose byte order is not a
// collation's ("ZETA Inc" before "alpha Labs", "Émile SA" last) lets a recipe that orders by a collation fail.
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

/** A day with no sandbox filing, and its 8-K filers: bytes order them otherwise than a case- or accent-blind collation. */
const MADE_UP_DAY = '2001-02-03';
const MADE_UP = ['alpha Labs', 'Émile SA', 'ZETA Inc', 'beta corp', 'Beta Corp'];

/** The made-up day's filings, written as a sync writes a page (raw as served, its columns, a hash). */
async function addMadeUpDay(t: TestStore, like: Record<string, unknown>): Promise<void> {
  const rows = MADE_UP.map((company, i) => {
    const raw = { ...like, accession_number: `0000000000-01-00000${i}`, company, form_type: '8-K', filing_date: MADE_UP_DAY };
    return {
      accession_number: raw.accession_number,
      company,
      form_type: '8-K',
      category: like.category ?? null,
      filing_date: MADE_UP_DAY,
      raw,
      row_hash: `made-up-${i}`,
    };
  });
  await t.store.transaction((tx) => tx.upsertChanged('sec_filings', ['accession_number'], rows, new Date().toISOString()));
}
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
    const like = (sb.records('sec-filings') as Record<string, unknown>[])[0]!;
    for (const t of [lite, pg]) await addMadeUpDay(t, like);
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

  it('has days with several 8-K filers to order, one of them in an order no collation gives', () => {
    expect(Object.values(truth).filter((l) => l.includes(', ')).length).toBeGreaterThan(5);
    // Bytes: capitals, then small letters, then what is not ASCII. A collation sets case and accents aside.
    expect(truth[MADE_UP_DAY]).toBe('Beta Corp, ZETA Inc, alpha Labs, beta corp, Émile SA');
    const collated = [...MADE_UP].sort(new Intl.Collator('en').compare).join(', ');
    expect(collated).not.toBe(truth[MADE_UP_DAY]);
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

  it('the PostgreSQL form in psql, whatever the collation of the database, and the recursive one there too', () => {
    expect(asLists(readerRows(pg, recipe('PostgreSQL')))).toEqual(truth);
    // The test cluster's collation is C, bytes: read as a database whose names have a language's collation
    // (an en_US.UTF-8 server's), the recipe must still give byte order.
    const [linguistic] = readerRows(
      pg,
      `select collname from pg_collation where collname in ('und-x-icu', 'en_US.utf8', 'en_US') order by collname desc limit 1`,
    );
    expect(linguistic, 'a collation that orders by language (ICU or en_US)').toBeDefined();
    const columns = `filing_date, form_type, accession_number, company collate "${String(linguistic!.collname)}" as company`;
    const asInLanguage = `with v_sec_filings as (select ${columns} from v_sec_filings)\n${recipe('PostgreSQL')}`;
    expect(asLists(readerRows(pg, asInLanguage))).toEqual(truth);
    // The recursive recipe is plain SQL: on PostgreSQL it orders by the database's collation.
    expect(Object.keys(asLists(readerRows(pg, recipe('recursive')))).sort()).toEqual(Object.keys(truth).sort());
  });
});
