// The mirror's schema as the store's migrator takes it (src/store/migrations.ts): the numbered migrations
// of schema/migrations/ and the repeatable objects (the analyst views with the data dictionary's comments,
// the history triggers). It sits above the store, the dictionary and schema/, so that opening a store
// loads none of them unless the caller hands them in.
import { fileURLToPath } from 'node:url';
import type { Migrations } from '../store/index.js';
import { REPEATABLES } from './repeatables.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations/', import.meta.url));

export const MIRROR_SCHEMA: Migrations = { folder: MIGRATIONS_DIR, repeatables: REPEATABLES };
