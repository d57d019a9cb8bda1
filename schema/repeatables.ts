// Objects made after the numbered migrations, whenever their definition changed: the analyst views and
// (on PostgreSQL) the data dictionary's comments. Their definitions are today's code, so no numbered
// migration may create them (a migration replayed years later would run today's views against that
// day's tables): a hash of the definition is stored in `schema_objects`, and a new hash recreates them.
// A fresh install and an upgrade from any release thus end with the same objects.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { applyComments } from '../src/dictionary/comments.js';
import { DICTIONARY } from '../src/dictionary/index.js';
import { analystSql } from '../src/store/analyst-dialects.js';
import type { Dialect } from '../src/store/types.js';
import { ANALYST_VIEWS, createViewSql, dropViews, recreateViews } from './views/index.js';

export interface Repeatable {
  name: string;
  /** What the objects are, as text: its hash decides whether they are made again. */
  definition(dialect: Dialect): string;
  /** Drops and makes the objects (inside the caller's transaction). */
  apply(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
  /** Drops them before migrations run, so a migration may change a table they read. */
  drop(db: Kysely<unknown>): Promise<void>;
}

/** The views and their comments are one object: dropping a view drops its comments. */
export const REPEATABLES: readonly Repeatable[] = [
  {
    name: 'analyst-layer',
    definition(dialect) {
      const d = analystSql(dialect);
      return [...ANALYST_VIEWS.map((v) => createViewSql(v, d)), d.keepsComments ? JSON.stringify(DICTIONARY) : ''].join(';\n');
    },
    async apply(db, dialect) {
      const d = analystSql(dialect);
      await recreateViews(db, d);
      if (d.keepsComments) await applyComments(db, DICTIONARY);
    },
    drop: (db) => dropViews(db),
  },
];

export function definitionHash(r: Repeatable, dialect: Dialect): string {
  return createHash('sha256').update(r.definition(dialect)).digest('hex');
}
