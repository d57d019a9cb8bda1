// The hashes of the repeatable objects whose definition is the code's alone (a `codeDefinition`: the
// analyst views, the catalog's rows), per dialect, recorded by `npm run build` beside the compiled
// migrations (scripts/prepare-fresh-schema.mjs). A store opened from the build reads them instead of
// making the definitions to hash them at every open: the analyst layer alone is 138 KB of SQL, 40-60 ms
// of a first command's CPU and 16-20 ms of every later one's. The file and the code that would make the
// text are one build's output (`npm run build` writes both); from the sources (tsx, the tests) there is
// no such file beside schema/migrations/, and the definitions are hashed as before.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIALECTS } from './dialects.js';
import { hashOf, type Migrations } from './migrations.js';
import type { Dialect } from './types.js';

/** Repeatable name → dialect → hash of its definition. */
export type BuiltHashes = Record<string, Partial<Record<Dialect, string>>>;

/** Beside the migrations folder: dist/schema/repeatable-hashes.json once built. */
export function builtHashesFile(migrationsDir: string): string {
  return join(migrationsDir, '..', 'repeatable-hashes.json');
}

/**
 * The recorded hashes, or an empty record (not built: running from the sources). Read synchronously at every
 * open, as the migrations' names are (migration-files.ts): a few kB.
 */
export async function readBuiltHashes(migrationsDir: string): Promise<BuiltHashes> {
  try {
    return JSON.parse(readFileSync(builtHashesFile(migrationsDir), 'utf8')) as BuiltHashes;
  } catch {
    return {};
  }
}

/** Records the hash of every code-defined repeatable of `migrations`, for each dialect. */
export async function writeBuiltHashes(migrations: Migrations): Promise<string> {
  const hashes: BuiltHashes = {};
  for (const r of migrations.repeatables) {
    if (!('codeDefinition' in r)) continue;
    const byDialect: Partial<Record<Dialect, string>> = {};
    for (const { name } of DIALECTS) byDialect[name] = hashOf(r.codeDefinition(name));
    hashes[r.name] = byDialect;
  }
  const file = builtHashesFile(migrations.folder);
  await writeFile(file, `${JSON.stringify(hashes, null, 2)}\n`);
  return file;
}
