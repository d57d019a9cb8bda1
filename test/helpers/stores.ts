// Every store test loops over `dialects` and opens a fresh store per test: a temp SQLite file, or (on
// PostgreSQL) a database of its own in the run's server. A migrated store is a copy of the run's
// template (store-templates.ts, made once by global-setup.ts); `migrate: false` gives an empty one.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { Dialect, Store } from '../../src/store/index.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { adminQuery, databaseUrl, TEMPLATE_SCHEMA } from './store-templates.js';
import { giveBack, takeDatabase } from './reused-databases.js';

export const dialects: readonly Dialect[] = ['sqlite', 'postgres'];

export interface TestStore {
  store: Store;
  /** What openStore was given: open another store (another connection or pool) on the same data. */
  url: string;
  schema?: string;
  openAnother(opts?: { migrate?: boolean }): Promise<Store>;
  /** Closes every store opened here and deletes the data. */
  cleanup(): Promise<void>;
}

/** A store to copy instead of the run's empty template: a closed SQLite file, a PostgreSQL database nobody is connected to. */
export interface StoreSource {
  sqliteFile: string;
  pgDatabase: string;
}

export interface TestStoreOptions {
  /** false: an empty store (no migration), in a schema of its own. */
  migrate?: boolean;
  /** A store to copy instead of the run's empty template. */
  copyOf?: StoreSource;
  /**
   * PostgreSQL: a database cloned for this store alone and dropped after, never one another test emptied
   * (reused-databases.ts), for a test that reads what only a new clone shows (its oids, its files' sizes).
   */
  fresh?: boolean;
}

export async function openTestStore(dialect: Dialect, opts: TestStoreOptions = {}): Promise<TestStore> {
  const opened: Store[] = [];
  const open = async (url: string, schema: string | undefined, migrate?: boolean) => {
    const store = await openStore({ migrations: MIRROR_SCHEMA, url, schema, migrate });
    opened.push(store);
    return store;
  };
  const closeAll = () => Promise.all(opened.map((s) => s.close().catch(() => {})));
  const migrated = opts.migrate !== false;
  // The first store of a copy (of the run's template, of a store made by this run's code, or a database
  // emptied back to its clone's state) skips the open's check: the migrations are recorded and the
  // repeatable objects made by the same code, so it finds nothing to do, and it costs a PostgreSQL open
  // about 18 ms of the server's CPU and 20 of the worker's (catalog reads on a new backend). Stores opened
  // after it (`openAnother`) check as a user's open does.
  const firstOpen = migrated ? false : opts.migrate;

  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-test-'));
    const file = join(dir, 'mirror.db');
    if (migrated) copyFileSync(opts.copyOf?.sqliteFile ?? inject('sqliteTemplate'), file);
    const url = `sqlite:${file}`;
    return {
      store: await open(url, undefined, firstOpen),
      url,
      openAnother: (o = {}) => open(url, undefined, o.migrate),
      async cleanup() {
        await closeAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (migrated && inject('pgTemplate')) {
    const server = inject('pgUrl');
    // A copy of another store, or a fresh clone asked for, is made and dropped; a clone of the template
    // is one this process emptied after an earlier test, when it has one (reused-databases.ts).
    const own = opts.copyOf !== undefined || opts.fresh === true;
    const database = own
      ? `${inject('pgPrefix')}_${randomBytes(6).toString('hex')}`
      : await takeDatabase(server, inject('pgTemplate'), inject('pgPrefix'));
    if (own) await adminQuery(server, `create database ${database} template ${opts.copyOf?.pgDatabase ?? inject('pgTemplate')}`);
    const url = databaseUrl(server, database);
    return {
      store: await open(url, TEMPLATE_SCHEMA, firstOpen),
      url,
      schema: TEMPLATE_SCHEMA,
      openAnother: (o = {}) => open(url, TEMPLATE_SCHEMA, o.migrate),
      async cleanup() {
        await closeAll();
        if (own) await adminQuery(server, `drop database if exists ${database} with (force)`);
        else await giveBack(server, database);
      },
    };
  }
  const url = inject('pgUrl');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    store: await open(url, schema, opts.migrate),
    url,
    schema,
    openAnother: (o = {}) => open(url, schema, o.migrate),
    // The schema is left until the run ends (global-setup drops every t_* schema): dropping it now
    // races with Kysely's migrator in other test processes, which introspects every schema's tables.
    cleanup: async () => void (await closeAll()),
  };
}

// Column types by dialect, as the adapters map them (tests build their own mirrored tables).
const TYPES = {
  sqlite: { text: 'text', integer: 'integer', double: 'real', boolean: 'integer', json: 'text', timestamp: 'text' },
  postgres: { text: 'text', integer: 'bigint', double: 'double precision', boolean: 'boolean', json: 'jsonb', timestamp: 'timestamptz' },
} as const;

/** A mirrored table like the catalog's: key columns, a few typed ones, raw, row_hash and the sync times. */
export async function createMirrorTable(store: Store, table: string, key: readonly string[]): Promise<void> {
  const t = TYPES[store.dialect];
  let create = store.db.schema.createTable(table);
  for (const k of key) create = create.addColumn(k, k.endsWith('id') ? t.integer : t.text, (c) => c.notNull());
  await create
    .addColumn('title', t.text)
    .addColumn('price', t.double)
    .addColumn('active', t.boolean)
    .addColumn('tags', t.json)
    .addColumn('updated_at', t.timestamp)
    .addColumn('raw', t.json, (c) => c.notNull())
    .addColumn('row_hash', t.text, (c) => c.notNull())
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('synced_at', t.timestamp, (c) => c.notNull())
    .addColumn('deleted_at', t.timestamp)
    .addPrimaryKeyConstraint(`${table}_pk`, [...key] as never)
    .execute();
}
