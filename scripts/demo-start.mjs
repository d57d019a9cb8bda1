// `npm run demo`'s start: scripts/demo.ts on the compiled code in dist/ (which `npm ci` builds, "prepare"),
// not through tsx. tsx's hooks cost the demo ~3 CPU-seconds of module loading, in the main thread and
// again in the SQLite writer's (a scale-0.1 demo: 7.5 CPU-s through tsx, 4 from dist). dist/ holds src/ alone, so
// the demo and the sandbox are bundled here by esbuild (a development dependency, as tsx is: ~0.3 CPU-s),
// their imports of src/ pointed at dist/src/ and the packages left to node_modules. When dist/ is missing or
// older than src/, it says so and what to do, and runs the TypeScript through tsx as before.
// package.json starts it with `--liftoff-only`, as bin/ds-mirror.js starts the CLI (bench/RESULTS.md): V8 does
// not recompile undici's HTTP parser (WebAssembly) with TurboFan, which Node waits for at exit (0.2-0.3 CPU-s).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The build's last output (its bundle step runs after tsc): a src/ file newer than it is not compiled in. */
const BUILT = 'dist/src/bundle/library.mjs';

/** Why dist/ cannot run the demo (missing, or older than a file of src/ or schema/), or null when it can. */
export function buildProblem(root) {
  const built = join(root, BUILT);
  if (!existsSync(built)) return `dist/ is not built (\`npm ci\` builds it, or \`npm run build\`)`;
  const builtAt = statSync(built).mtimeMs;
  for (const dir of ['src', 'schema']) {
    for (const file of readdirSync(join(root, dir), { recursive: true })) {
      if (file.endsWith('.ts') && statSync(join(root, dir, file)).mtimeMs > builtAt)
        return `dist/ is older than ${dir}/${file} (\`npm run build\` compiles it again)`;
    }
  }
  return null;
}

/** scripts/demo.ts and the sandbox as one ES module in dist/demo/, importing dist/src/ for src/. */
async function bundleDemo(root) {
  const { build, stop } = await import('esbuild');
  const outDir = join(root, 'dist', 'demo');
  const toDist = {
    name: 'src-from-dist',
    setup(b) {
      b.onResolve({ filter: /\/src\// }, ({ path, resolveDir }) => {
        const source = resolve(resolveDir, path);
        if (!source.startsWith(join(root, 'src') + sep)) return undefined;
        const compiled = join(root, 'dist', relative(root, source));
        return {
          path: relative(outDir, compiled)
            .split('\\')
            .join('/')
            .replace(/^(?!\.)/, './'),
          external: true,
        };
      });
    },
  };
  try {
    const { outputFiles } = await build({
      entryPoints: [join(root, 'scripts', 'demo.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      plugins: [toDist],
      write: false,
      outfile: join(outDir, 'demo.mjs'),
      logLevel: 'warning',
    });
    // Written whole, then renamed: two demos started at once never import half a file.
    const out = join(outDir, 'demo.mjs');
    mkdirSync(outDir, { recursive: true });
    const partial = `${out}.${process.pid}`;
    writeFileSync(partial, outputFiles[0].contents);
    renameSync(partial, out);
    return out;
  } finally {
    await stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = buildProblem(ROOT);
  if (problem === null) {
    await import(pathToFileURL(await bundleDemo(ROOT)).href);
  } else {
    process.stderr.write(`npm run demo: ${problem}; running the TypeScript through tsx instead, a few CPU-seconds slower\n`);
    const tsx = [
      ...process.execArgv,
      '--require',
      join(ROOT, 'scripts', 'ts-threads.cjs'),
      '--import',
      'tsx',
      join(ROOT, 'scripts', 'demo.ts'),
    ];
    const { status } = spawnSync(process.execPath, tsx, { stdio: 'inherit' });
    process.exitCode = status ?? 1;
  }
}
