// @end-to-end
// README's "Use as a library" runs as written: its code block, saved as a module of a program that has
// ds-mirror installed (node_modules/ds-mirror is this package: its `exports` and its build), syncs two
// streams from the sandbox and prints the run's line and five projects read from a view. The lines it
// prints are the rows the mirror holds, read back as a user would (sqlite3 on the file; on PostgreSQL the
// same block with the configuration's `db` pointed at the server).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { openTestStore } from '../helpers/stores.js';
import { ROOT } from '../structure/room-graph.js';

const run = promisify(execFile);
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The first code block of the README's "Use as a library" section. */
function libraryExample(): string {
  const section = README.split(/^## /m).find((s) => s.startsWith('Use as a library'));
  const block = section && /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no "Use as a library" section with a js block');
  return block;
}

let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  // Scale 0.05: 50 projects (one page) and 24 sectors, more than the five rows the example prints.
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 11 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-library-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'ds-mirror'), 'dir');
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the example (its code as given) in the program's folder; its output lines. */
async function runExample(code: string): Promise<string[]> {
  const file = join(dir, `example-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, code);
  const env = { ...process.env, DS_BASE_URL: sandbox.url, DS_API_KEY: sandbox.apiKey, DS_LOG_LEVEL: 'warn' };
  const { stdout } = await run(process.execPath, [file], { cwd: dir, env });
  return stdout.trimEnd().split('\n');
}

/** The lines the example prints for rows of v_projects (title, sector). */
const projectLines = (rows: { title: string; sector: string | null }[]) => rows.map((p) => `${p.title} (${p.sector ?? 'no sector'})`);

describe('README: use as a library', () => {
  it('syncs two streams into the SQLite file and prints the rows its view holds', async () => {
    const lines = await runExample(libraryExample());
    expect(lines[0]).toMatch(/^run \d+: success, [1-9]\d* requests$/);
    const query = 'select title, sector from v_projects order by title limit 5; select count(*) from sectors where deleted_at is null;';
    const { stdout } = await run('sqlite3', ['-json', join(dir, 'data', 'mirror.db'), query]);
    const [projects, sectors] = stdout
      .trim()
      .split(/\n(?=\[)/)
      .map((j) => JSON.parse(j));
    expect(projects).toHaveLength(5);
    expect(lines.slice(1)).toEqual(projectLines(projects));
    expect(Object.values(sectors[0])[0]).toBeGreaterThan(0);
  });

  it('does the same on PostgreSQL, with the configuration pointed at the server', async () => {
    const t = await openTestStore('postgres', { migrate: false });
    try {
      const at = JSON.stringify({ db: t.url, dbSchema: t.schema });
      const code = libraryExample().replace('loadConfig({}, ', `loadConfig(${at}, `);
      expect(code).not.toEqual(libraryExample());
      const lines = await runExample(code);
      expect(lines[0]).toMatch(/^run \d+: success, [1-9]\d* requests$/);
      await t.store.migrate();
      const projects = await t.store.db.selectFrom('v_projects').select(['title', 'sector']).orderBy('title').limit(5).execute();
      expect(projects).toHaveLength(5);
      expect(lines.slice(1)).toEqual(projectLines(projects));
    } finally {
      await t.cleanup();
    }
  });
});
