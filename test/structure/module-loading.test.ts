// No module is loaded back by URL: a room hands another room data, never the address of its own code to
// run (the receiver once handed the store's writer thread the URL of its write rule, an arrow no import
// rule or picture saw). So in src/, `import()` names its module as a literal, and a module's URL is made
// only beside the Worker or import() that loads it: a thread's entry, in its starter's file and folder.
// Allowed, and why: src/store/run-migrations.ts imports the migration files of the folder its caller
// hands in (`openStore({ migrations })`), as Kysely's FileMigrationProvider does; src/cli/cached-start.ts
// lends the bundled CLI its import() for that one (a vm.Script has no module loader of its own).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './room-graph.js';

const ALLOWED_DYNAMIC = new Set(['src/store/run-migrations.ts', 'src/cli/cached-start.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** An import() of a computed specifier. */
const DYNAMIC_IMPORT = /\bimport\(\s*[^'"\s)]/;
/** A URL of a module (a .js or .ts file, or one named by a template) made from this file's own URL. */
const MODULE_URL = /new URL\(\s*(['"`])([^'"`]*(\.(js|ts|mjs)|\$\{[^}]*\}))\1\s*,\s*import\.meta\.url/;
const LOADER = /\bnew Worker\(|\bimport\(/;

function codeLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\s\/\/ .*$/, '').trim())
    .filter((line) => line !== '' && !/^(\/\/|\/\*|\*)/.test(line));
}

/** What loads a module by URL where it should not, as `file: line`. */
function loadedByUrl(path: string, text: string): string[] {
  const lines = codeLines(text);
  const found: string[] = [];
  for (const line of lines) {
    if (DYNAMIC_IMPORT.test(line) && !ALLOWED_DYNAMIC.has(path)) found.push(`${path}: ${line}`);
    const url = MODULE_URL.exec(line);
    if (!url) continue;
    const sameFolder = url[2]!.startsWith('./') && !url[2]!.slice(2).includes('/');
    if (!sameFolder || !lines.some((l) => LOADER.test(l))) found.push(`${path}: ${line}`);
  }
  return found;
}

describe('no module is loaded back by URL', () => {
  it('finds what it looks for', () => {
    const handedOver = "const TASK = new URL(`./delivery-task.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);";
    expect(loadedByUrl('src/receiver/x.ts', `${handedOver}\nexport const writer = () => thread(TASK);`)).toHaveLength(1);
    expect(loadedByUrl('src/store/x.ts', 'const { writeRequest } = await import(task);')).toHaveLength(1);
    const entry = "const ENTRY = new URL('./writer-thread.js', import.meta.url);\nconst worker = new Worker(ENTRY);";
    expect(loadedByUrl('src/store/x.ts', entry)).toEqual([]);
    expect(loadedByUrl('src/cli/x.ts', "const load = async () => (await import('./sync-command.js')).syncCommand;")).toEqual([]);
  });

  it('in src/, every module is loaded by name or beside its loader', () => {
    const found = sourceFiles(join(ROOT, 'src')).flatMap((file) =>
      loadedByUrl(relative(ROOT, file).split('\\').join('/'), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });
});
