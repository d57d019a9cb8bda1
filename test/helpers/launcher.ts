// The node flags on bin/ds-mirror.js's first line (`#!/usr/bin/env -S node --expose-gc --liftoff-only`):
// a user's `ds-mirror` starts node with them, so a test that spawns `node bin/ds-mirror.js` passes them too.
// Without them the test's CLI would differ from the user's (no periodic full collections) and pay ~0.2 CPU-s
// at exit for V8's optimising recompile of undici's HTTP parser.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The node flags of a checkout's launcher, as a shell would start it. */
export function launcherFlags(root = '.'): string[] {
  const first = readFileSync(join(root, 'bin/ds-mirror.js'), 'utf8').split('\n')[0] ?? '';
  const flags = /^#!.*\bnode\b(.*)$/.exec(first)?.[1] ?? '';
  return flags.trim().split(/\s+/).filter(Boolean);
}

/** This checkout's launcher flags, to put before `bin/ds-mirror.js` in a spawned node's arguments. */
export const LAUNCHER_FLAGS: readonly string[] = launcherFlags();

/** A spawned node's arguments for `ds-mirror <args>`: the launcher's flags, the bin, the command line. */
export function cliArgs(args: readonly string[]): string[] {
  return [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args];
}
