// Only what a dependency publishes: a module reached inside a package (`undici/lib/...`) or a V8 flag
// flipped at run time can change or vanish in any patch release. A package's public modules are its root
// and the subpaths its `exports` map lists; one without such a map publishes its root alone.
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'schema', 'sandbox', 'scripts', 'bench', 'bin'];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function codeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? codeFiles(join(dir, e.name)) : CODE.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * Every quoted string that reads as a package's subpath (`pkg/x`, `@scope/pkg/x`): import and export
 * statements, `import()`, `require()` and strings handed to a require made by `createRequire` alike.
 */
function subpathSpecifiers(source: string): { pkg: string; subpath: string }[] {
  const found: { pkg: string; subpath: string }[] = [];
  for (const [, spec] of source.matchAll(/['"`]((?:@[\w.-]+\/)?[\w.-]+\/[^'"`\s$]+)['"`]/g)) {
    const parts = spec!.split('/');
    const pkg = spec!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    if (pkg.startsWith('.') || builtinModules.includes(pkg) || pkg.startsWith('node:')) continue;
    found.push({ pkg, subpath: `.${spec!.slice(pkg.length)}` });
  }
  return found;
}

/** The subpaths a package publishes through its `exports` map (patterns with `*` included). */
function published(exportsField: unknown, subpath: string): boolean {
  if (!exportsField || typeof exportsField !== 'object') return false;
  const keys = Object.keys(exportsField).filter((k) => k.startsWith('.'));
  return keys.some((key) => {
    if (!key.includes('*')) return key === subpath;
    const [before, after] = key.split('*') as [string, string];
    return subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= before.length + after.length;
  });
}

/** `pkg/sub` in a file that is not a package the project installed is no import (a URL path, a MIME type). */
function privateImports(file: string, source: string, packageJson: (pkg: string) => { exports?: unknown } | null): string[] {
  return subpathSpecifiers(source).flatMap(({ pkg, subpath }) => {
    const manifest = packageJson(pkg);
    if (!manifest || published(manifest.exports, subpath)) return [];
    return [`${relative(ROOT, file)}: ${pkg}${subpath.slice(1)}`];
  });
}

function installedPackageJson(pkg: string): { exports?: unknown } | null {
  const path = join(ROOT, 'node_modules', pkg, 'package.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { exports?: unknown }) : null;
}

/**
 * The development dependencies a file names as a package (`'tsx'`, `"tsx/esm"`): the installed product
 * has none of them, so the library must not read one at run time (its loader included).
 */
function devDependenciesNamed(source: string, devDependencies: readonly string[]): string[] {
  return devDependencies.filter((pkg) => new RegExp(`['"\`]${pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(/[^'"\`]*)?['"\`]`).test(source));
}

const DEV_DEPENDENCIES = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> }).devDependencies ?? {},
);

/** V8 flags changed once the process runs (`v8.setFlagsFromString`): V8 documents the result as undefined. */
const FLAGS_AT_RUN_TIME = /\bsetFlagsFromString\b/;

describe('dependencies are used through what they publish', () => {
  const files = SCANNED.flatMap((dir) => codeFiles(join(ROOT, dir)));

  it('imports no private module of a package (static, dynamic, require or createRequire)', () => {
    expect(files.length).toBeGreaterThan(100); // the walk found the code
    expect(files.flatMap((file) => privateImports(file, readFileSync(file, 'utf8'), installedPackageJson))).toEqual([]);
  });

  it('the library names no development dependency (src/ and bin/ run where none is installed)', () => {
    const shipped = files.filter((file) => /^(src|bin)\//.test(relative(ROOT, file)));
    expect(shipped.length).toBeGreaterThan(100);
    const naming = shipped.flatMap((file) =>
      devDependenciesNamed(readFileSync(file, 'utf8'), DEV_DEPENDENCIES).map((pkg) => `${relative(ROOT, file)}: ${pkg}`),
    );
    expect(naming).toEqual([]);
    // The check finds a loader resolved at run time, and passes what merely looks alike.
    expect(DEV_DEPENDENCIES).toContain('tsx');
    expect(devDependenciesNamed("createRequire(import.meta.url).resolve('tsx/package.json')", DEV_DEPENDENCIES)).toEqual(['tsx']);
    expect(devDependenciesNamed("const ext = 'tsx-like'; import { x } from 'undici';", DEV_DEPENDENCIES)).toEqual([]);
  });

  it('flips no V8 flag at run time', () => {
    const flipping = files.filter((file) => FLAGS_AT_RUN_TIME.test(readFileSync(file, 'utf8')));
    expect(flipping.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('the checks find a private path, however it is loaded, and pass what a package exports', () => {
    const source = [
      "const Pool = load('undici/lib/dispatcher/pool.js');",
      "import { x } from 'kysely/dist/esm/index.js';",
      "const y = await import('@duckdb/node-api/lib/index.js');",
      "import { jsonArrayFrom } from 'kysely/helpers/postgres';",
      "import { Pool } from 'undici';",
      "const pkg = require.resolve('tsx/package.json');",
      "import { readFile } from 'node:fs/promises';",
      "const mime = 'application/json';",
    ].join('\n');
    expect(privateImports(join(ROOT, 'x.ts'), source, installedPackageJson)).toEqual([
      'x.ts: undici/lib/dispatcher/pool.js',
      'x.ts: kysely/dist/esm/index.js',
      'x.ts: @duckdb/node-api/lib/index.js',
    ]);
    expect(FLAGS_AT_RUN_TIME.test("import { setFlagsFromString } from 'node:v8'; setFlagsFromString('--expose-gc');")).toBe(true);
  });
});
