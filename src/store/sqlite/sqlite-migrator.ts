// What the migrator asks of SQLite: one namespace per file, a write transaction that already excludes
// every other writer, the table listing of sqlite_master, and the schema prepared at build time for a new file.
import { sql, type Kysely } from 'kysely';
import type { MigratorSupport } from '../store-dialect.js';
import { applyFreshSchema, isEmptySqlite, readFreshSchema } from './fresh-schema.js';
import { buildDeferredIndexes, DEFERRED_INDEXES, deferredIndexMissing } from './sqlite-first-load.js';
import { IDLE_WHILE_EMPTY } from './sqlite-idle-triggers.js';

export const SQLITE_MIGRATOR: MigratorSupport = {
  currentSchema: async () => undefined,
  withinSchema: (db) => db,
  // The store's transactions begin IMMEDIATE: the write lock is taken before anything is read.
  lockRepeatables: async () => {},
  async hasTable(db: Kysely<any>, table: string) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = ${table}`.execute(db);
    return Number(rows[0]?.n) > 0;
  },
  deferredIndexes: {
    definition: [...DEFERRED_INDEXES, ...IDLE_WHILE_EMPTY].map((i) => i.sql).join(';\n'),
    missing: deferredIndexMissing,
    build: (db) => buildDeferredIndexes(db),
  },
  freshSchema: { read: readFreshSchema, isEmpty: isEmptySqlite, apply: applyFreshSchema },
};
