// The shipped CLI's start (bundled as dist/src/bundle/main.js, which bin/ds-mirror.js requires): the command
// line is one CommonJS bundle (dist/src/bundle/main.cjs, scripts/bundle-cli.mjs) compiled with V8's code
// cache, so a start does not parse and compile again what the same command compiled the last time. Node 20
// caches no compiled code of its own (module.enableCompileCache came in Node 22), and its ES module loader
// takes no cached data: vm.Script does, for a CommonJS source, as v8-compile-cache has done for years.
// A command line that names no command (--help, --version, a mistyped option) or a light one (`streams`)
// starts from a small bundle of the command list alone (dist/src/bundle/light.cjs): the full bundle's top
// level, 2.9 MB whose code cache is 0.6 MB before anything runs, cost such a start about 60 ms of CPU.
// One cache per command (a sync compiles other functions than --help), made after the command's first run
// (so it holds the functions that ran, not only the top level) in dist/code-cache/, outside what the package
// ships. A run that failed (exit code not 0) ran only part of its command: its cache is partial, and the
// first run that succeeds writes the whole one (all the functions compiled in both). A sync whose cache a
// `sync nope` had made compiled the rest of a sync from source every time: about 100 ms of CPU. Its name
// holds a hash of the bundle's bytes, Node's version and flags: a rebuilt bundle or another Node finds none
// and makes its own; one V8 rejects is compiled from source and made anew; a folder the
// user cannot write (a read-only install) runs from source every time, as before.
import { accessSync, constants, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { LIGHT_COMMANDS, requestedCommand } from './command-word.js';
import type { CliIo } from './io.js';

type Cli = { main(argv: readonly string[], io?: CliIo): Promise<number> };
type Wrapper = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  file: string,
  dir: string,
  importDynamic: (specifier: string) => Promise<unknown>,
) => void;

// The same from dist/src/cli/ (compiled) and dist/src/bundle/ (bundled): both sit two folders below dist/.
const FULL = fileURLToPath(new URL('../bundle/main.cjs', import.meta.url));
const LIGHT = fileURLToPath(new URL('../bundle/light.cjs', import.meta.url));
const CACHE_DIR = fileURLToPath(new URL('../../code-cache/', import.meta.url));
const DIGESTS = fileURLToPath(new URL('../bundle/digests.json', import.meta.url));

/** What the build recorded of a bundle file. */
interface Digest {
  sha1: string;
  size: number;
  mtimeMs: number;
}

/**
 * Node's CommonJS wrapper, and one more: the bundle's import() of a module named at run time (the migrations)
 * calls this module's import() (scripts/bundle-cli.mjs hands it over), as a vm.Script has no loader of its
 * own without Node's experimental flag or warning.
 */
const WRAPPER_PARAMETERS = 'exports, require, module, __filename, __dirname, __importDynamic';

export async function main(argv: readonly string[]): Promise<number> {
  const command = requestedCommand(argv.slice(2));
  const bundle = command === null || LIGHT_COMMANDS.includes(command) ? LIGHT : FULL;
  const source = readFileSync(bundle);
  const name = join(CACHE_DIR, cacheName(digestOf(bundle, source), command, argv));
  const made = { done: `${name}.bin`, partial: `${name}.partial.bin` };
  const done = readCache(made.done);
  const cachedData = done ?? readCache(made.partial);
  // latin1: the bundle is ASCII (charset: 'ascii'), which V8 keeps as one byte a character, and decoding
  // it needs no UTF-8 scan.
  const script = new vm.Script(`(function (${WRAPPER_PARAMETERS}) {${source.toString('latin1')}\n})`, { filename: bundle, cachedData });
  const code = await run(script, bundle).main(argv);
  if (script.cachedDataRejected) remove(done ? made.done : made.partial);
  if (cachedData === undefined || script.cachedDataRejected) writeCache(code === 0 ? made.done : made.partial, script);
  else if (done === undefined && code === 0) {
    writeCache(made.done, script); // the functions the partial run compiled, and those of a whole one
    remove(made.partial);
  }
  return code;
}

/** Runs the bundle as Node runs a CommonJS file, and returns its exports. */
function run(script: vm.Script, bundle: string): Cli {
  const wrapper = script.runInThisContext() as Wrapper;
  const module = { exports: {} };
  const importDynamic = (specifier: string) => import(specifier);
  wrapper.call(module.exports, module.exports, requireFrom(bundle), module, bundle, dirname(bundle), importDynamic);
  return module.exports as Cli;
}

/**
 * A require that resolves from the bundle's folder: once bundled, this file's own (dist/src/bundle/main.js,
 * CommonJS, beside main.cjs and light.cjs); else one made for it. Loading `node:module` for createRequire set
 * up parts of node's ES module loader (its loader, its source maps) at every start: 1-2 ms of CPU.
 */
function requireFrom(bundle: string): NodeJS.Require {
  return typeof require === 'function' && require.resolve(`./${basename(bundle)}`) === bundle
    ? require
    : process.getBuiltinModule('node:module').createRequire(bundle);
}

/**
 * The bundle's SHA-1 as the build recorded it (dist/src/bundle/digests.json, scripts/bundle-cli.mjs) while
 * the file keeps the size and modification time it had then; else computed (an install, whose files npm
 * dates anew; a bundle edited by hand). Hashing the 2.9 MB bundle, and loading node:crypto to do it, were
 * 5-15 ms of CPU at every start.
 */
function digestOf(bundle: string, source: Buffer): string {
  try {
    const recorded = (JSON.parse(readFileSync(DIGESTS, 'utf8')) as Record<string, Digest>)[basename(bundle)];
    const { size, mtimeMs } = statSync(bundle);
    if (recorded && recorded.size === size && recorded.mtimeMs === mtimeMs) return recorded.sha1;
  } catch {
    // no record (a build before this one): computed
  }
  // not imported: an import() would set up node's ES module loader for it (bin/ds-mirror.js)
  return process.getBuiltinModule('node:crypto').hash('sha1', source, 'hex');
}

/**
 * `<hash of the bundle, Node and its flags>-<command>`: what V8 checks of it, and more. A command's help
 * and a sync's --plan stop before the command's work, so they keep caches of their own. The bundle's
 * digest and Node's details are folded into 16 hex digits by two FNV-1a hashes (no node:crypto needed).
 */
function cacheName(digest: string, command: string | null, argv: readonly string[]): string {
  const node = [process.version, process.arch, process.execArgv.join(' '), process.env.NODE_OPTIONS ?? ''].join('\0');
  const text = `${digest}\0${node}`;
  const key = fnv1a(text, 0x811c9dc5) + fnv1a(text, 0x5bd1e995);
  const word = command === null ? 'none' : /^[a-z-]{1,20}$/.test(command) ? command : 'other';
  const stops = ['--help', '-h', '--plan'].filter((flag) => argv.includes(flag)).map((flag) => flag.replace(/^-+/, ''));
  return [key, word, ...stops].join('-');
}

/** 32-bit FNV-1a of `text` from `basis`, as 8 hex digits. */
function fnv1a(text: string, basis: number): string {
  let h = basis;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // none yet: compiled from source, and made after the run
  }
}

function remove(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // a folder the user cannot write: nothing was made there either
  }
}

/** Written whole under a temporary name, then renamed: a start beside it reads the old file or the new one. */
function writeCache(file: string, script: vm.Script): void {
  const temporary = `${file}.${process.pid}`;
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    accessSync(CACHE_DIR, constants.W_OK);
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true }); // a folder the user cannot write: the next start compiles from source
  }
}
