// A repeatable object whose definition is the code's alone has its hash recorded by the build
// (built-hashes.ts): a store opened from the build takes that hash instead of making the definition's
// text at every open, and one opened from the sources (no recorded file) hashes the text as before.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { builtHashesFile, writeBuiltHashes } from '../../src/store/built-hashes.js';
import { hashOf, type Migrations, type Repeatable } from '../../src/store/migrations.js';
import { runMigrations } from '../../src/store/run-migrations.js';
import type { Dialect } from '../../src/store/types.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const root = mkdtempSync(join(tmpdir(), 'ds-mirror-built-hashes-'));
const folder = `${root}/migrations/`;
mkdirSync(folder);
// The repeatable objects' ledger alone, as migration 0030 makes it.
writeFileSync(
  join(folder, '0001-ledger.mjs'),
  `export async function up(db, t) {
  await db.schema.createTable('schema_objects')
    .addColumn('name', t.text, (c) => c.primaryKey())
    .addColumn('definition_hash', t.text, (c) => c.notNull())
    .addColumn('applied_at', t.timestamp, (c) => c.notNull())
    .execute();
}
`,
);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A code-defined repeatable that counts how often its text is made and its objects applied. */
function probe() {
  const counts = { defined: 0, applied: 0 };
  const repeatable: Repeatable = {
    name: 'probe',
    codeDefinition: (dialect) => {
      counts.defined++;
      return `the probe's objects on ${dialect}`;
    },
    apply: async () => void counts.applied++,
    drop: async () => {},
  };
  return { counts, migrations: { folder, repeatables: [repeatable] } satisfies Migrations };
}

const opened: TestStore[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.cleanup();
  rmSync(builtHashesFile(folder), { force: true });
});

async function migrateEmpty(dialect: Dialect, migrations: Migrations): Promise<{ db: Kysely<any>; hash: () => Promise<string> }> {
  const t = await openTestStore(dialect, { migrate: false });
  opened.push(t);
  const db = t.store.db as unknown as Kysely<any>;
  const target = { dialect: t.store.dialect, columnTypes: t.store.adapter.columnTypes, schema: t.schema };
  const outcome = await runMigrations(db, target, migrations);
  expect(outcome.error).toBeUndefined();
  return {
    db,
    hash: async () => String((await db.selectFrom('schema_objects').select('definition_hash').executeTakeFirstOrThrow()).definition_hash),
  };
}

describe('the build records the hashes of code-defined repeatables', () => {
  it('writes, per dialect, the hash of the text the code makes', async () => {
    const { migrations } = probe();
    await writeBuiltHashes(migrations);
    expect(JSON.parse(readFileSync(builtHashesFile(folder), 'utf8'))).toEqual({
      probe: { sqlite: hashOf("the probe's objects on sqlite"), postgres: hashOf("the probe's objects on postgres") },
    });
  });
});

for (const dialect of dialects) {
  describe(`${dialect}: opening a store`, () => {
    it('hashes the text when nothing was recorded (running from the sources)', async () => {
      const { counts, migrations } = probe();
      const { hash } = await migrateEmpty(dialect, migrations);
      expect(await hash()).toBe(hashOf(`the probe's objects on ${dialect}`));
      expect(counts).toEqual({ defined: 1, applied: 1 });
    });

    it("takes the build's hash without making the text, and applies the objects when it differs from the stored one", async () => {
      const { counts, migrations } = probe();
      writeFileSync(builtHashesFile(folder), JSON.stringify({ probe: { [dialect]: 'recorded-by-the-build' } }));
      const { hash } = await migrateEmpty(dialect, migrations);
      expect(await hash()).toBe('recorded-by-the-build');
      expect(counts).toEqual({ defined: 0, applied: 1 });
    });
  });
}
