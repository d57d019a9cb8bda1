// The data dictionary covers the database exactly (every table, view and column described, nothing
// described that does not exist) on both stores, PostgreSQL carries it as comments, and docs/schema.md's
// generated section and `ds-mirror schema` print it.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { DICTIONARY } from '../../src/dictionary/index.js';
import { dictionaryMarkdown } from '../../src/dictionary/render.js';
import { readSection } from '../../src/dictionary/generated-sections.js';
import { listTables } from '../../src/store/store-tables.js';
import type { Store } from '../../src/store/index.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

/** Every relation (table or view) of the store with its columns, read from the database. */
async function relations(store: Store): Promise<Map<string, string[]>> {
  const { rows } =
    store.dialect === 'sqlite'
      ? await sql<{ relation: string; column: string }>`
          select m.name as relation, c.name as "column" from sqlite_master m join pragma_table_info(m.name) c
          where m.type in ('table', 'view') and m.name not like 'sqlite_%'`.execute(store.db)
      : await sql<{ relation: string; column: string }>`
          select c.relname as relation, a.attname as "column" from pg_class c
            join pg_namespace n on n.oid = c.relnamespace
            join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          where n.nspname = current_schema() and c.relkind in ('r', 'v')`.execute(store.db);
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.relation, [...(out.get(r.relation) ?? []), r.column]);
  return out;
}

describe.each(dialects)('data dictionary on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(dialect);
  });
  afterAll(async () => t?.cleanup());

  it('describes every table, view and column of the database, and nothing else', async () => {
    const db = await relations(t.store);
    const undocumented: string[] = [];
    for (const [relation, columns] of db) {
      const doc = DICTIONARY.find((d) => d.name === relation);
      if (!doc) undocumented.push(relation);
      else
        for (const c of columns)
          if (!doc.columns.some((d) => d.name === c && d.description.length > 0)) undocumented.push(`${relation}.${c}`);
    }
    expect(undocumented, 'add these to src/dictionary/').toEqual([]);
    const stale = DICTIONARY.flatMap((d) =>
      db.has(d.name) ? d.columns.filter((c) => !db.get(d.name)!.includes(c.name)).map((c) => `${d.name}.${c.name}`) : [d.name],
    );
    expect(stale, 'described but not in the database').toEqual([]);
    expect((await listTables(t.store)).length).toBeGreaterThan(30);
  });

  // PostgreSQL only: SQLite has no comments (its descriptions are published by `ds-mirror schema` and docs/schema.md).
  it.runIf(dialect === 'postgres')('PostgreSQL carries every description as a comment', async () => {
    const { rows } = await sql<{ relation: string; column: string | null; comment: string | null }>`
      select c.relname as relation, a.attname as "column", col_description(c.oid, a.attnum) as comment
      from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = current_schema() and c.relkind in ('r', 'v')`.execute(t.store.db);
    const missing = rows.filter((r) => {
      const doc = DICTIONARY.find((d) => d.name === r.relation)?.columns.find((c) => c.name === r.column);
      return r.comment !== doc?.description;
    });
    expect(missing.map((r) => `${r.relation}.${r.column}`)).toEqual([]);
    const { rows: tables } = await sql<{ comment: string }>`select obj_description(to_regclass('v_alerts'), 'pg_class') as comment`.execute(
      t.store.db,
    );
    expect(tables[0].comment).toBe(DICTIONARY.find((d) => d.name === 'v_alerts')!.description);
  });
});

describe('published dictionary', () => {
  it("docs/schema.md's dictionary is what the code generates (npm run docs:schema rewrites it)", () => {
    const readme = readFileSync(new URL('../../docs/schema.md', import.meta.url), 'utf8');
    expect(readSection(readme, 'schema')).toBe(dictionaryMarkdown(DICTIONARY));
  });

  it('ds-mirror schema prints plain text, Markdown and JSON, and refuses an unknown name in one line', async () => {
    const run = async (...args: string[]) => {
      let out = '';
      let err = '';
      const io = { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) }, env: {} };
      const code = await main(['node', 'ds-mirror', 'schema', ...args], io as never);
      return { code, out, err };
    };
    const json = await run('--format', 'json', 'v_assets', 'assets');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out).map((d: { name: string }) => d.name)).toEqual(['v_assets', 'assets']);
    const md = await run('--format', 'md', 'v_events');
    expect(md.out).toContain('| `importance_rank` | integer |');
    const text = await run('v_events'); // plain text by default: no HTML, no Markdown table
    expect(text.out).toMatch(/^v_events \(view\)$/m);
    expect(text.out).toMatch(/^ {2}importance_rank +integer +\S/m);
    expect(text.out).not.toMatch(/<details>|\| `/);
    const bad = await run('v_nope');
    expect([bad.code, bad.err.trim().split('\n').length, bad.err]).toEqual([2, 1, expect.stringContaining('v_nope')]);
  });
});
