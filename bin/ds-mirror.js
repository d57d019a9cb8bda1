#!/usr/bin/env -S node --expose-gc --liftoff-only
// `--expose-gc`: a sync frees the pages it parsed with a full collection now and then (src/sync/full-collections.ts).
// `--liftoff-only`: the responses are parsed by undici's llhttp, a WebAssembly module whose parser (one very
// large function) V8 otherwise recompiles with its optimizing tier once it is hot, on a background thread,
// even after one small response, and the process waits for that compilation before it exits: about 0.2 s of
// CPU (up to a second of wall time on a loaded machine) in every command that sends a request, a third of a
// small sync. Its baseline code parses as fast for what a mirror receives (a body is skipped over, not read
// byte by byte): a first `sync v1` of 120 requests used no more CPU with it (bench/RESULTS.md). A flag at
// start, not flipped at run time (test/structure/public-apis.test.ts); `node bin/ds-mirror.js` runs without it.
// The compiled CLI (dist/, built by `npm ci` through the "prepare" script, or `npm run build`), bundled
// into a few files (dist/src/bundle/) so that a command does not load hundreds of modules at start.
// CommonJS (bin/package.json), as is the bundle's start (dist/src/bundle/main.js): a main ES module makes
// node set up its ES module loader (its resolution, its loading of node:fs/promises, a module record for
// each built-in imported), 15-25 ms of CPU at every start that nothing here needs.
'use strict';
// A reader that went away (`ds-mirror status | head -1`) ends the command quietly, as other tools do.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
let cli;
try {
  cli = require('../dist/src/bundle/main.js');
} catch (error) {
  if (error?.code !== 'MODULE_NOT_FOUND' || !String(error.message).includes('dist/src/bundle/main.js')) throw error;
  process.stderr.write('ds-mirror: not built yet: run `npm run build` (or `npm ci`) in the ds-mirror folder\n');
  process.exit(1);
}
cli.main(process.argv).then((code) => {
  process.exitCode = code;
});
