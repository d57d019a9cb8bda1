// Opening a mirror in a new process, as the CLI does (dist/, after `npm run build`): a new SQLite file
// made from the schema prepared at build time, the same replaying every migration, and an existing file.
// Each open is a process of its own (module imports count, as they do for a command); kinds alternate so
// load on a shared machine hits them alike; medians in ms of the open (import of the store excluded).
//   npx tsx bench/fresh-store.ts [--runs 12]
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const run = promisify(execFile);
const { values } = parseArgs({ options: { runs: { type: 'string', default: '12' } } });
const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'dist/schema/sqlite-fresh-schema.json'))) throw new Error('no prepared schema: run `npm run build` first');

// The child: opens without migrating, then migrates as openStore would, or with no prepared schema.
const child = `
const { openStore } = await import(${JSON.stringify(join(root, 'dist/src/store/open-store.js'))});
const { runMigrations } = await import(${JSON.stringify(join(root, 'dist/src/store/run-migrations.js'))});
const { MIRROR_SCHEMA } = await import(${JSON.stringify(join(root, 'dist/src/mirror-schema/index.js'))});
const [mode, file] = process.argv.slice(-2);
const started = performance.now();
const store = await openStore({ migrations: MIRROR_SCHEMA, url: 'sqlite:' + file, migrate: false });
const outcome = await runMigrations(store.db, store.adapter, MIRROR_SCHEMA, mode === 'replay' ? async () => undefined : undefined);
if (outcome.error) throw outcome.error;
await store.close();
process.stdout.write(String(performance.now() - started));`;

async function openMs(mode: 'prepared' | 'replay', file: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', child, mode, file]);
  return Number(stdout);
}

const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-fresh-store-'));
const times: Record<string, number[]> = { 'new file, prepared schema': [], 'new file, every migration replayed': [], 'existing file': [] };
try {
  for (let i = 0; i < Number(values.runs); i++) {
    times['new file, prepared schema']!.push(await openMs('prepared', join(dir, `p${i}.db`)));
    times['new file, every migration replayed']!.push(await openMs('replay', join(dir, `r${i}.db`)));
    times['existing file']!.push(await openMs('prepared', join(dir, `p${i}.db`)));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const lines = ['| open | median ms | min ms | max ms |', '|---|---|---|---|'];
for (const [kind, xs] of Object.entries(times))
  lines.push(`| ${kind} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`);
process.stdout.write(`${lines.join('\n')}\n`);
