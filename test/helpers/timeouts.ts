// A test or hook has 20 s by default (vitest.config.ts), so a hang fails in seconds. A file whose tests
// sync a sandbox, spawn the CLI or run a daemon opts in to more at its top; the bounds are generous on
// purpose (a busy machine runs them several times slower): they catch a hang, they measure nothing.
import { vi } from 'vitest';

/** Syncs of a sandbox, CLI processes, daemons: seconds on a quiet machine, a minute or more on a busy one. */
export const END_TO_END = 180_000;

/** Every test and hook of this file may take up to `ms` (a test's own `timeout` still wins). */
export function slowFile(ms: number): void {
  vi.setConfig({ testTimeout: ms, hookTimeout: ms });
}
