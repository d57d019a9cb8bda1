// The migration files of a folder (schema/migrations/NNNN-name.ts, or .js once built), and a hash of
// their names and contents: what a schema prepared from them was prepared from.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.(ts|js|mjs)$/;

/** The migration files of `dir` by name (without extension), in name order. */
export async function migrationFiles(dir: string): Promise<[string, string][]> {
  const files: [string, string][] = [];
  for (const file of (await readdir(dir)).sort()) {
    const match = MIGRATION_FILE.exec(file);
    if (match && !file.endsWith('.d.ts')) files.push([match[1]!, file]);
  }
  return files;
}

/** Changes when a migration is added, removed or edited (a frozen one should not be, but may be). */
export async function migrationsHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const [, file] of await migrationFiles(dir))
    hash
      .update(`${file}\0`)
      .update(await readFile(dir + file))
      .update('\0');
  return hash.digest('hex');
}
