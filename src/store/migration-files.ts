// The migration files of a folder (schema/migrations/NNNN-name.ts, or .js once built), and a hash of
// their names and contents: what a schema prepared from them was prepared from. Read synchronously: every
// command that opens a store lists the folder, and node:fs/promises, loaded for that alone, was 5-8 ms of a
// command's CPU (a folder of some fifty names reads in microseconds).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.(ts|js|mjs)$/;

/** The migration files of `dir` by name (without extension), in name order. */
export async function migrationFiles(dir: string): Promise<[string, string][]> {
  const files: [string, string][] = [];
  for (const file of readdirSync(dir).sort()) {
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
      .update(readFileSync(dir + file))
      .update('\0');
  return hash.digest('hex');
}
