// The indexes a first load left out (StoreAdapter.firstLoad) as a repeatable object: after the migrations,
// at every open that makes the repeatable objects, one found missing is made again. A load builds what it
// left out when it ends, however it ends; this is for the process that never got there (killed mid-pass,
// power lost): the next writable open of the store restores the index before anything else runs.
import { dialectNamed } from './dialects.js';
import type { Repeatable } from './migrations.js';

export const DEFERRED_INDEXES: Repeatable = {
  name: 'deferred-indexes',
  codeDefinition: (dialect) => dialectNamed(dialect).migrator.deferredIndexes?.definition ?? '',
  missing: async (db, dialect) => (await dialectNamed(dialect).migrator.deferredIndexes?.missing(db)) ?? false,
  apply: async (db, dialect) => dialectNamed(dialect).migrator.deferredIndexes?.build(db),
  // The migrations made them and may change them: nothing to drop before they run.
  drop: async () => {},
};
