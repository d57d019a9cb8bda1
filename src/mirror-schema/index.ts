// The mirror's schema as the store's migrator takes it (src/store/migrations.ts): the numbered migrations
// of schema/migrations/ and the repeatable objects (the analyst views with the data dictionary's comments,
// the history triggers). It sits above the store, the dictionary and schema/, so that opening a store
// loads none of them unless the caller hands them in.
import { fileURLToPath } from 'node:url';
import type { Migrations } from '../store/index.js';
import { allStreams, type StreamDef } from '../catalog/index.js';
import { repeatables } from './repeatables.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations/', import.meta.url));

/** The schema of a mirror of `streams`: the numbered migrations, and the views, triggers and rows made for those streams. */
export function mirrorSchema(streams: readonly StreamDef[]): Migrations {
  return { folder: MIGRATIONS_DIR, repeatables: repeatables(streams) };
}

/** The mirror's schema: its catalog's streams. */
export const MIRROR_SCHEMA: Migrations = mirrorSchema(allStreams());
