// @end-to-end
// docs/connect.md's Python example runs as documented: its first ```python block, with the standard
// library alone (python3's sqlite3), against a freshly synced SQLite mirror, prints the top assets and
// the streams that hold rows exactly as the views give them.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { openTestStore, type TestStore } from '../helpers/stores.js';

const DOC = readFileSync(new URL('../../docs/connect.md', import.meta.url), 'utf8');
const EXAMPLE = /```python\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';

const python = spawnSync('python3', ['-c', 'import sqlite3; print(sqlite3.sqlite_version)'], { encoding: 'utf8' });
const pythonSqlite = python.status === 0 ? python.stdout.trim() : null;

/** Whether python3's SQLite reads this mirror's schema at all (older than a view needs: it refuses every query). */
function readsSchema(file: string): { ok: boolean; error: string } {
  const r = spawnSync(
    'python3',
    ['-c', 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("select count(*) from sqlite_master").fetchall()', file],
    {
      encoding: 'utf8',
    },
  );
  return { ok: r.status === 0, error: r.stderr.trim().split('\n').at(-1) ?? '' };
}

describe('docs/connect.md: the Python example', () => {
  let sb: Sandbox;
  let t: TestStore;
  let file: string;

  beforeAll(async () => {
    sb = await startSandbox({ scale: 0.05, seed: 5, start: PINNED_START });
    t = await openTestStore('sqlite');
    await syncOnce(t.store, sb, ['assets', 'chains']);
    file = t.url.replace(/^sqlite:/, '');
  }, 120_000);
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it('is in the doc, and uses the standard library only', () => {
    expect(EXAMPLE).toContain('import sqlite3');
    expect(EXAMPLE).not.toMatch(/import (pandas|sqlalchemy|psycopg)/);
  });

  // Without python3 there is nothing to run the example with (CI's .ci/run installs it).
  it.skipIf(pythonSqlite === null)('prints the top assets and the streams as the views give them', async () => {
    // Every view opens in SQLite 3.37 and later (test/readers), so python3's own SQLite must read the file.
    expect(readsSchema(file)).toMatchObject({ ok: true });
    const script = join(file, '..', 'read_mirror.py');
    writeFileSync(script, EXAMPLE);
    const out = execFileSync('python3', [script, file], { encoding: 'utf8' }).trim().split('\n');

    expect(out[0]).toBe(`SQLite ${pythonSqlite}`);
    const top = (await t.store.db
      .selectFrom('v_assets')
      .select(['market_cap_rank', 'title', 'price_usd'])
      .where('market_cap_rank', 'is not', null)
      .orderBy('market_cap_rank')
      .orderBy('id')
      .limit(5)
      .execute()) as { market_cap_rank: number; title: string; price_usd: number | null }[];
    const assets = out.filter((l) => l.startsWith('asset '));
    expect(assets).toHaveLength(5);
    expect(assets.map((l) => l.split(' ').slice(1, 2).join())).toEqual(top.map((r) => String(r.market_cap_rank)));
    for (const [i, r] of top.entries()) expect(assets[i]).toContain(r.title);

    const streams = out.filter((l) => l.startsWith('stream ')).map((l) => l.split(' ').slice(1));
    expect(streams.map(([s, table]) => [s, table])).toEqual([
      ['assets', 'assets'],
      ['assets-top', 'assets'], // the top of each class fills the same table: v_streams counts it as status does
      ['chains', 'chains'],
    ]);
    const [{ n }] = (await t.store.db
      .selectFrom('assets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('deleted_at', 'is', null)
      .execute()) as {
      n: number;
    }[];
    expect(Number(streams[0]![2])).toBe(Number(n));
  });
});
