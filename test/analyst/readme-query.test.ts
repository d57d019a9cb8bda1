// The README's first query gives the ten largest assets on both stores: unranked assets (equities
// without a market cap rank) come last, though SQLite sorts NULL first unless told otherwise.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStore } from '../helpers/stores.js';
import { type AnalystMirror, analystMirror } from './analyst-fixture.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const FIRST_QUERY = /```sql\n(select [^\n]* from v_assets [^\n]*);\n```/.exec(README)?.[1];

describe("the README's first query", () => {
  let mirror: AnalystMirror;
  const stores: TestStore[] = [];

  beforeAll(async () => {
    mirror = await analystMirror();
    stores.push(mirror.lite, mirror.pg);
  }, 300_000);
  afterAll(() => mirror?.cleanup());

  it.each(['sqlite', 'postgres'])('on %s gives the ten best-ranked assets, unranked ones last', async (dialect) => {
    const { store } = stores.find((t) => t.store.dialect === dialect)!;
    expect(FIRST_QUERY).toContain('order by market_cap_rank');
    const unranked = await sql<{ n: number }>`select count(*) as n from v_assets where market_cap_rank is null`.execute(store.db);
    expect(Number(unranked.rows[0]!.n)).toBeGreaterThan(0); // else the order of NULLs is never tested
    const { rows } = await sql.raw<{ title: string; code: string }>(FIRST_QUERY!).execute(store.db);
    const best = await sql<{ title: string; code: string }>`
      select title, code from v_assets where market_cap_rank <= (
        select max(market_cap_rank) from (select market_cap_rank from v_assets where market_cap_rank is not null order by market_cap_rank limit 10) t)`.execute(
      store.db,
    );
    expect(rows.length).toBe(10);
    const key = (r: { title: string; code: string }) => `${r.code} ${r.title}`;
    expect(best.rows.map(key)).toEqual(expect.arrayContaining(rows.map(key)));
  });
});
