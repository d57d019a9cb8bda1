// The store types only its own tables: the ones its own code reads and writes (runs, stream state, leases,
// ...). Each room types the tables it owns beside its code (`export interface <Room>Tables`), and
// test/store/database-types.test.ts composes them all to check every one against the migrations.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './room-graph.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const rel = (file: string) => relative(ROOT, file).split('\\').join('/');

/** The table names an interface of `text` declares (`name: SomethingTable;` lines). */
function tablesOf(text: string, iface: string): string[] {
  const body = new RegExp(`export interface ${iface} \\{\\n([^}]*)\\n\\}`).exec(text)?.[1] ?? '';
  return [...body.matchAll(/^\s+(\w+): \w+;$/gm)].map((m) => m[1]!);
}

/** Code without its comments: a comment may name a table to explain. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '');
}

describe('each room types its own tables', () => {
  it('the store types only tables its own code names', () => {
    const database = readFileSync(join(ROOT, 'src/store/database.ts'), 'utf8');
    const typed = tablesOf(database, 'Database');
    expect(typed.length).toBeGreaterThan(0);
    const storeCode = sourceFiles(join(ROOT, 'src/store'))
      .filter((f) => !f.endsWith('/database.ts'))
      .map((f) => code(readFileSync(f, 'utf8')))
      .join('\n');
    expect(typed.filter((table) => !new RegExp(`['"\`\\s]${table}\\b`).test(storeCode))).toEqual([]);
  });

  it("every room's tables are checked against the migrations", () => {
    const checked = readFileSync(join(ROOT, 'test/store/database-types.test.ts'), 'utf8');
    const rooms = sourceFiles(join(ROOT, 'src'))
      .filter((f) => !rel(f).startsWith('src/store/'))
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^export interface (\w+Tables) \{/gm)].map((m) => `${rel(f)}: ${m[1]}`));
    expect(rooms.length).toBeGreaterThan(0);
    expect(rooms.filter((r) => !new RegExp(`\\b${r.split(': ')[1]}\\b`).test(checked))).toEqual([]);
  });
});
