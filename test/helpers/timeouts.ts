// A test or hook has 20 s by default (vitest.config.ts), so a hang fails in seconds. A file whose tests
// sync a sandbox, spawn the CLI or run a daemon opts in to more at its top; the bounds are generous on
// purpose (a busy machine runs them several times slower): they catch a hang, they measure nothing.
// The bound a file opts in to also tells the sequencer (sequencer.ts) to start it early.
import { afterAll, vi } from 'vitest';

/** Syncs of a sandbox, CLI processes, daemons: seconds on a quiet machine, a minute or more on a busy one. */
export const END_TO_END = 180_000;

/**
 * A file that waits on the real clock (a service's calendar minute): over a minute however fast the
 * machine, mostly idle, so it starts first and overlaps the rest.
 */
export const REAL_MINUTES = 300_000;

/** Every test and hook of this file may take up to `ms` (a test's own `timeout` still wins). */
export function slowFile(ms: number): void {
  vi.setConfig({ testTimeout: ms, hookTimeout: ms });
  // Test files share a worker (isolate: false): the next file starts from the default again.
  afterAll(() => vi.resetConfig());
}
