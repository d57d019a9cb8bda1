// A repeatable whose definition is the code's alone has its hash recorded by the build (the store's
// built-hashes.ts), but the build records it for the catalog it was built with. A mirror of another
// catalog (a library caller's, a test's made-up list) must hash its own text at open, or its views
// would be taken for the build's and never made.
import { allStreams, type StreamDef } from '../catalog/index.js';
import type { Dialect } from '../store/index.js';

type Definition = { codeDefinition(dialect: Dialect): string } | { definition(db: unknown, dialect: Dialect): Promise<string> };

/** `make` as a code definition when `streams` is the built catalog, else as one hashed at every open. */
export function definitionFromCode(streams: readonly StreamDef[], make: (dialect: Dialect) => string): Definition {
  const built = allStreams();
  const isBuilt = streams.length === built.length && streams.every((s, i) => s === built[i]);
  return isBuilt ? { codeDefinition: make } : { definition: async (_db, dialect) => make(dialect) };
}
