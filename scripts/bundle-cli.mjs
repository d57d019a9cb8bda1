// Run by `npm run build` after tsc: the CLI and the store's writer thread as a few files in
// dist/src/bundle/ (kysely alone is 279 files, zod 95: loading them was half of a no-op sync's time). The
// bundle sits at the same depth as dist/src/<room>/, so the paths its modules resolve from import.meta.url
// (../../schema/migrations/, ../../jobs/, and the writer thread's ./sqlite-writer-thread.js) land where
// the compiled files' do.
// - main.cjs: the command line, one CommonJS file, so that src/cli/cached-start.ts can compile it with V8's
//   code cache (Node 20's ES module loader takes none). Commands not run stay uncompiled: esbuild wraps a
//   module reached only by import() in a function called when it is first needed.
//   An import() of a computed name (the migrations, src/store/run-migrations.ts) is handed over: a vm.Script
//   has no module loader without an experimental flag or warning, so it calls __importDynamic, which
//   cached-start.ts gives it (an import() of its own). An import() of a package left in would fail there:
//   the build refuses it.
// - main.js: cached-start.ts, what bin/ds-mirror.js requires.
// - sqlite-writer-thread.js: the writer thread's entry.
// - library.mjs: the library (src/index.ts), what the package's `exports` point at.
// The native addons (better-sqlite3's, pg's optional pg-native) and what the CLI loads by name at run time
// (cli-progress) stay outside, loaded from node_modules. pino, cron, pg, prom-client and, in main.cjs,
// better-sqlite3's JavaScript are inside: in the code cache, not compiled again at every start (pg's 0.07 s
// of CPU in a command on PostgreSQL).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const entry = (name) => fileURLToPath(new URL(`../dist/src/${name}`, import.meta.url));
const outdir = fileURLToPath(new URL('../dist/src/bundle/', import.meta.url));
rmSync(outdir, { recursive: true, force: true });
// Caches made by the bundle this build replaces (src/cli/cached-start.ts names them by its hash).
rmSync(fileURLToPath(new URL('../dist/code-cache/', import.meta.url)), { recursive: true, force: true });
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };
/** `import(` not followed by a quote: a module named at run time. */
const COMPUTED_IMPORT = /\bimport\((?!\s*['"`])/g;
const handOverImports = {
  name: 'hand-over-computed-imports',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const handed = text.replace(COMPUTED_IMPORT, '__importDynamic(');
      return handed === text ? undefined : { contents: handed, loader: 'js' };
    });
  },
};
/**
 * undici's cookie helpers (which nothing here calls) accept Node's global Headers beside their own, and
 * reading that global at load makes Node compile its own copy of undici: 40-60 ms of CPU in every
 * command that sends a request. Their own Headers class is all they need here.
 */
const COOKIES = /[\\/]node_modules[\\/]undici[\\/]lib[\\/]web[\\/]cookies[\\/]index\.js$/;
const GLOBAL_HEADERS = '[Headers, globalThis.Headers].filter(Boolean)';
const ownHeadersOnly = {
  name: 'undici-own-headers',
  setup(b) {
    b.onLoad({ filter: COOKIES }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      if (!text.includes(GLOBAL_HEADERS)) throw new Error(`bundle-cli: ${path} no longer reads ${GLOBAL_HEADERS}: look again`);
      return { contents: text.replace(GLOBAL_HEADERS, '[Headers]'), loader: 'js' };
    });
  },
};
/**
 * Node built-ins that packages in the bundle require at load and that no command of ds-mirror uses, loaded
 * when first called instead: commander's and cron's child_process (for executable subcommands and command
 * jobs, which ds-mirror has none of), undici's http2 (its HTTP/2 client: ds-mirror's pools offer HTTP/1.1 alone) and dns (its DNS
 * cache interceptor, not used). Each start paid for them: 5-10 ms of CPU for http2 alone, measured in a
 * fresh node (bench/RESULTS.md). The text replaced is checked: a new version of a package that reads them
 * otherwise fails the build, to be looked at again.
 */
const LAZY_BUILTINS = [
  {
    file: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    text: "const childProcess = require('node:child_process');",
    lazy: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
  {
    file: /[\\/]node_modules[\\/]cron[\\/]dist[\\/]job\.js$/,
    text: 'const child_process_1 = require("child_process");',
    lazy: 'const child_process_1 = { spawn: (...args) => require("child_process").spawn(...args) };',
  },
  {
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]interceptor[\\/]dns\.js$/,
    text: "const { lookup } = require('node:dns')",
    lazy: "const lookup = (...args) => require('node:dns').lookup(...args)",
  },
  {
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/,
    text: "http2 = require('node:http2')",
    lazy: "http2 = { connect: (...args) => require('node:http2').connect(...args), constants: HTTP2_CONSTANTS }",
    // The protocol's header names and error codes the client reads from http2.constants at load (checked below).
    before: `const HTTP2_CONSTANTS = ${JSON.stringify(http2Constants())};\n`,
  },
  // undici's mock agent's snapshot recorder (loaded by undici's index, used by no command): its files.
  {
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]mock[\\/]snapshot-recorder\.js$/,
    text: "const { writeFile, readFile, mkdir } = require('node:fs/promises')",
    lazy: "const { writeFile, readFile, mkdir } = Object.fromEntries(['writeFile', 'readFile', 'mkdir'].map((name) => [name, (...args) => require('node:fs/promises')[name](...args)]))",
  },
  // undici's WebIDL helpers at load, for its fetch and its Response and Request bodies (ds-mirror's client uses
  // its Pool alone): Node's global ReadableStream, whose first read loads Node's web streams, 5-6 ms of CPU in
  // every command that sends a request. Read at the first check instead.
  {
    file: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]web[\\/]webidl[\\/]index\.js$/,
    text: 'webidl.is.ReadableStream = webidl.util.MakeTypeAssertion(ReadableStream)',
    lazy: 'webidl.is.ReadableStream = (O) => webidl.util.MakeTypeAssertion(ReadableStream)(O)',
  },
  // prom-client's Pushgateway (loaded by its index; the daemon's /metrics is scraped, never pushed): node:https
  // (and with it node:tls) and node:zlib, 5-10 ms of CPU in every daemon's start.
  {
    file: /[\\/]node_modules[\\/]prom-client[\\/]lib[\\/]pushgateway\.js$/,
    text: "const https = require('https');",
    lazy: "const https = { request: (...args) => require('https').request(...args) };",
  },
  {
    file: /[\\/]node_modules[\\/]prom-client[\\/]lib[\\/]pushgateway\.js$/,
    text: "const { gzipSync } = require('zlib');",
    lazy: "const gzipSync = (...args) => require('zlib').gzipSync(...args);",
  },
  // pino's logger at every start: node:assert for one check of a file stream's descriptor and of a thread
  // stream's mode, node:worker_threads for its transports' thread (ds-mirror's logger writes to a descriptor
  // and starts none) and to ask whether it runs on the main thread, a question asked only for such a
  // transport. 7-9 ms of CPU in every command that does not start a thread of its own.
  {
    file: /[\\/]node_modules[\\/]sonic-boom[\\/]index\.js$/,
    text: "const assert = require('assert')",
    lazy: "const assert = (...args) => require('assert')(...args)",
  },
  {
    file: /[\\/]node_modules[\\/]thread-stream[\\/]index\.js$/,
    text: "const assert = require('assert')",
    lazy: "const assert = (...args) => require('assert')(...args)",
  },
  {
    file: /[\\/]node_modules[\\/]thread-stream[\\/]index\.js$/,
    text: "const { Worker } = require('worker_threads')",
    lazy: "const Worker = function (...args) { return new (require('worker_threads').Worker)(...args) }",
  },
  // pino's transports (none started): node:module, for a transport's target; loading it sets up parts of node's
  // ES module loader, 1-2 ms of CPU in every command (the start no longer loads it: src/cli/cached-start.ts).
  {
    file: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]transport\.js$/,
    text: "const { createRequire } = require('module')",
    lazy: "const createRequire = (...args) => require('module').createRequire(...args)",
  },
  {
    file: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]tools\.js$/,
    text: "const { isMainThread } = require('worker_threads')",
    lazy: '',
  },
  {
    file: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]tools\.js$/,
    text: 'if (!opts.sync && isMainThread) {',
    lazy: "if (!opts.sync && require('worker_threads').isMainThread) {",
  },
];
/**
 * better-sqlite3's JavaScript inside the command line's bundle, in its code cache: loaded from node_modules,
 * its dozen files were resolved and compiled at every start of a command that opens a SQLite file, 5-15 ms
 * of CPU. Its native addon stays in node_modules: `bindings` looks for it from the folder of the file that
 * calls it, which would be the bundle's, so it is told the package's own folder (its `module_root` option),
 * two folders above the package's main file (lib/index.js, checked here) as `require.resolve` finds it at
 * run time; it then tries the same places in the same order as before.
 */
const SQLITE_ADDON = /[\\/]node_modules[\\/]better-sqlite3[\\/]lib[\\/]database\.js$/;
const ADDON_LOOKUP = "require('bindings')('better_sqlite3.node')";
const addonFromItsPackage = {
  name: 'better-sqlite3-addon-from-its-package',
  setup(b) {
    b.onLoad({ filter: SQLITE_ADDON }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const { main } = JSON.parse(await readFile(join(dirname(path), '..', 'package.json'), 'utf8'));
      if (text.split(ADDON_LOOKUP).length !== 2 || main !== 'lib/index.js')
        throw new Error(`bundle-cli: ${path} no longer reads \`${ADDON_LOOKUP}\` once, or its package's main moved: look again`);
      // The name passed in, not written in the call: esbuild would resolve a literal at build time.
      const root = "((name) => require('node:path').resolve(require.resolve(name), '..', '..'))('better-sqlite3')";
      return {
        contents: text.replace(ADDON_LOOKUP, `require('bindings')({ bindings: 'better_sqlite3.node', module_root: ${root} })`),
        loader: 'js',
      };
    });
  },
};
/** The values of node:http2's constants that undici's HTTP/2 client destructures at load, read here at build time. */
function http2Constants() {
  const names = ['AUTHORITY', 'METHOD', 'PATH', 'SCHEME', 'CONTENT_LENGTH', 'EXPECT', 'STATUS', 'PROTOCOL'].map((n) => `HTTP2_HEADER_${n}`);
  const all = createRequire(import.meta.url)('node:http2').constants;
  return Object.fromEntries([...names, 'NGHTTP2_REFUSED_STREAM', 'NGHTTP2_CANCEL'].map((n) => [n, all[n]]));
}
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    // One loader a file (esbuild takes the first that answers), making each of its entries' changes.
    for (const file of new Set(LAZY_BUILTINS.map((entry) => entry.file.source))) {
      const changes = LAZY_BUILTINS.filter((entry) => entry.file.source === file);
      b.onLoad({ filter: new RegExp(file) }, async ({ path }) => {
        let source = await readFile(path, 'utf8');
        for (const { text, lazy } of changes) {
          if (source.split(text).length !== 2) throw new Error(`bundle-cli: ${path} no longer reads \`${text}\` once: look again`);
          source = source.replace(text, lazy);
        }
        return { contents: changes.map((entry) => entry.before ?? '').join('') + source, loader: 'js' };
      });
    }
  },
};
/**
 * An ES module's named imports of a Node built-in, as esbuild writes them in a CommonJS bundle
 * (`import_promises3=require("node:fs/promises")`, then `(0,import_promises3.readFile)(...)`), made to load the
 * built-in at the first use of one of its exports rather than when the module is initialised: a module is
 * initialised for what else it exports. `status` loaded node:http (15-18 ms of CPU) because it reads the
 * receiver's counts from the receiver's room, whose server it never starts, and node:crypto (10-20 ms) for the
 * hash of the migrations that only a new SQLite file compares. Not node:fs, node:path and node:url, which
 * node loads before any of it. Default and namespace imports (`__toESM(require(...))`) are left as they are.
 */
const OWN_BUILTIN_IMPORT = /\b(import_[\w$]+)=require\("(node:(?!(?:fs|path|url)")[\w/]+)"\)/g;
const BUILTIN_ON_FIRST_USE = [
  'var __builtinOnFirstUse = (id) => {',
  '  let loaded;',
  '  const load = () => (loaded ??= require(id));',
  '  return new Proxy({}, {',
  '    get: (_, key) => load()[key],',
  '    has: (_, key) => key in load(),',
  '    ownKeys: () => Reflect.ownKeys(load()),',
  '    getOwnPropertyDescriptor: (_, key) => {',
  '      const found = Reflect.getOwnPropertyDescriptor(load(), key);',
  '      return found && { ...found, configurable: true };',
  '    },',
  '  });',
  '};',
].join('\n');
function builtinsOnFirstUse(text, name) {
  const lazy = text.replace(OWN_BUILTIN_IMPORT, (_, variable, id) => `${variable}=__builtinOnFirstUse("${id}")`);
  if (lazy === text && name === 'main') throw new Error('bundle-cli: no import of a Node built-in found to load on first use: look again');
  return lazy === text ? text : `${BUILTIN_ON_FIRST_USE}\n${lazy}`;
}
const commandLine = {
  ...common,
  outdir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  minifyWhitespace: true,
  charset: 'ascii',
  legalComments: 'linked',
  external: ['better-sqlite3', 'pg-native', 'cli-progress'],
  // import.meta is empty in CommonJS: the bundle's own URL stands for the URL of each module in it.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
/**
 * light.cjs holds the command list and the light commands alone (src/cli/command-word.ts): every other
 * command's import() from the list becomes a module that throws, never loaded there, as the list loads
 * only the command named, and cached-start.ts starts the full bundle for those.
 */
const { LIGHT_COMMANDS } = await import(pathToFileURL(entry('cli/command-word.js')).href);
const lightOnly = {
  name: 'light-commands-only',
  setup(b) {
    b.onResolve({ filter: /^\.\/[a-z-]+-command\.js$/ }, ({ path, kind, importer }) => {
      if (kind !== 'dynamic-import' || !/[\\/]cli[\\/]commands\.js$/.test(importer)) return undefined;
      return LIGHT_COMMANDS.includes(path.slice(2, -'-command.js'.length)) ? undefined : { path, namespace: 'not-light' };
    });
    b.onLoad({ filter: /.*/, namespace: 'not-light' }, ({ path }) => ({
      contents: `throw new Error(${JSON.stringify(`${path} is not in the light bundle (scripts/bundle-cli.mjs)`)});`,
      loader: 'js',
    }));
  },
};
for (const [name, plugins] of [
  ['main', [handOverImports, ownHeadersOnly, lazyBuiltins, addonFromItsPackage]],
  ['light', [handOverImports, lightOnly, lazyBuiltins]],
]) {
  // better-sqlite3 inside main.cjs (addonFromItsPackage); the library and the writer thread load it from node_modules.
  const external = commandLine.external.filter((name) => name !== 'better-sqlite3');
  await build({ ...commandLine, external, entryPoints: { [name]: entry('cli/main.js') }, plugins });
  const file = `${outdir}${name}.cjs`;
  writeFileSync(file, builtinsOnFirstUse(readFileSync(file, 'utf8'), name));
  const left = readFileSync(file, 'utf8').match(/[^\w$.]import\(.{0,60}/g);
  if (left) throw new Error(`bundle-cli: an import() is left in ${name}.cjs, which runs as a vm.Script: ${left.join('; ')}`);
}
// What src/cli/cached-start.ts names each command's code cache by, recorded here so that a start need not
// hash the bundle (it does when the file's size or time differ from these: an install, an edited file).
const digests = Object.fromEntries(
  ['main.cjs', 'light.cjs'].map((file) => {
    const { size, mtimeMs } = statSync(`${outdir}${file}`);
    return [
      file,
      {
        sha1: createHash('sha1')
          .update(readFileSync(`${outdir}${file}`))
          .digest('hex'),
        size,
        mtimeMs,
      },
    ];
  }),
);
writeFileSync(`${outdir}digests.json`, JSON.stringify(digests));
// main.js (the start, which bin/ds-mirror.js requires) and the writer thread's entry, CommonJS too: an ES module
// makes node set up its ES module loader first (in the thread as in the process), 15-25 ms of CPU. The folder's
// package.json says so, since the thread's entry keeps the name the store gives it (sqlite-writer-thread.js).
await build({
  ...common,
  entryPoints: { main: entry('cli/cached-start.js'), 'sqlite-writer-thread': entry('store/sqlite/sqlite-writer-thread.js') },
  outdir,
  format: 'cjs',
  external: ['better-sqlite3'],
  define: commandLine.define,
  banner: commandLine.banner,
});
writeFileSync(`${outdir}package.json`, `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
// library.mjs: the library (src/index.ts), what the package's `exports` give a program's
// `import { openMirror } from 'ds-mirror'`: one ES module instead of the few hundred files tsc wrote (kysely's 279,
// zod's 95), which a program's start resolved and loaded one by one: README's example took 1.6 s of CPU, 0.85 s bundled. Its migrations'
// import() stays an import(): an ES module has its loader.
await build({
  ...common,
  entryPoints: { library: entry('index.js') },
  outdir,
  outExtension: { '.js': '.mjs' },
  format: 'esm',
  minifyWhitespace: true,
  charset: 'ascii',
  legalComments: 'linked',
  external: commandLine.external,
  plugins: [ownHeadersOnly, lazyBuiltins],
  // CommonJS packages inside an ES module bundle require Node's built-ins: give them a require.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
});
process.stdout.write('bundled dist/src/bundle/\n');
