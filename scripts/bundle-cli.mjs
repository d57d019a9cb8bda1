// Run by `npm run build` after tsc: the CLI and the store's writer thread as a few files in
// dist/src/bundle/ (kysely alone is 279 files, zod 95: loading them was half of a no-op sync's time). The
// bundle sits at the same depth as dist/src/<room>/, so the paths its modules resolve from import.meta.url
// (../../schema/migrations/, ../../jobs/, and the writer thread's ./sqlite-writer-thread.js) land where
// the compiled files' do.
// Native and worker-spawning packages stay outside (loaded from node_modules as before).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const entry = (name) => fileURLToPath(new URL(`../dist/src/${name}`, import.meta.url));
const outdir = fileURLToPath(new URL('../dist/src/bundle/', import.meta.url));
rmSync(outdir, { recursive: true, force: true }); // chunks are named by content: old ones would pile up
await build({
  entryPoints: {
    main: entry('cli/main.js'),
    'sqlite-writer-thread': entry('store/sqlite/sqlite-writer-thread.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', 'pg', 'pino', 'prom-client', 'cli-progress', 'hyparquet-writer', 'cron'],
  // CommonJS packages inside an ES module bundle require Node's built-ins: give them a require.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  logLevel: 'warning',
});
process.stdout.write('bundled dist/src/bundle/\n');
