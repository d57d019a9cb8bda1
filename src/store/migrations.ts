// What the store's migrator is handed, as Kysely's Migrator is handed a provider: the folder of numbered
// migrations and the repeatable objects made after them. The store knows neither: whoever opens a store
// hands it the mirror's (src/mirror-schema/), or a test its own.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Dialect } from './types.js';

/**
 * Objects made after the numbered migrations whenever their definition changed (views, comments,
 * triggers): a hash of the definition is kept in `schema_objects`, and a new one makes them again.
 * The definition is either read from the tables they depend on (`definition`), or the code's alone
 * (`codeDefinition`): the build then records its hash (built-hashes.ts), which a store opened from
 * the build takes instead of making the text again at every open.
 */
export type Repeatable = RepeatableObjects &
  (
    | {
        /** What the objects are, as text read from the tables they depend on: its hash decides whether they are made again. */
        definition(db: Kysely<unknown>, dialect: Dialect): Promise<string>;
      }
    | {
        /** What the objects are, as text made from the code and the dialect only (no database read). */
        codeDefinition(dialect: Dialect): string;
      }
  );

interface RepeatableObjects {
  name: string;
  /** Whether one is missing though the definition is unchanged (dropped by hand): they are made again. */
  missing?(db: Kysely<unknown>, dialect: Dialect): Promise<boolean>;
  /** Drops and makes the objects (inside the caller's transaction). */
  apply(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
  /** Drops them before migrations run, so a migration may change a table they read. */
  drop(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

export interface Migrations {
  /** The folder of numbered migrations (NNNN-name.ts, or .js once built), applied in name order; ends with '/'. */
  folder: string;
  /** Made after the migrations, in this order, whenever their definition changes. */
  repeatables: readonly Repeatable[];
}

export async function definitionHash(r: Repeatable, db: Kysely<unknown>, dialect: Dialect): Promise<string> {
  if (!('codeDefinition' in r)) return hashOf(await r.definition(db, dialect));
  // The code's text is the same for the process's life: made and hashed once per object and dialect (from
  // the sources, where no build recorded it, the analyst layer's 138 KB cost each store opened 16-20 ms).
  const byDialect = codeHashes.get(r) ?? new Map<Dialect, string>();
  codeHashes.set(r, byDialect);
  let hash = byDialect.get(dialect);
  if (hash === undefined) byDialect.set(dialect, (hash = hashOf(r.codeDefinition(dialect))));
  return hash;
}

const codeHashes = new WeakMap<Repeatable, Map<Dialect, string>>();

/** What `schema_objects.definition_hash` keeps of a definition. */
export function hashOf(definition: string): string {
  return createHash('sha256').update(definition).digest('hex');
}
