#!/usr/bin/env -S node --expose-gc
// `--expose-gc`: a sync frees the pages it parsed with a full collection now and then (src/sync/full-collections.ts).
// The compiled CLI (dist/, built by `npm ci` through the "prepare" script, or `npm run build`), bundled
// into a few files (dist/src/bundle/) so that a command does not load hundreds of modules at start.
// A reader that went away (`ds-mirror status | head -1`) ends the command quietly, as other tools do.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
let cli;
try {
  cli = await import('../dist/src/bundle/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/src/bundle/main.js')) throw error;
  process.stderr.write('ds-mirror: not built yet: run `npm run build` (or `npm ci`) in the ds-mirror folder\n');
  process.exit(1);
}
process.exitCode = await cli.main(process.argv);
