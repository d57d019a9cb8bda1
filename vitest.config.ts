import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const WORKERS = availableParallelism() * 2;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL server for the whole run (or DS_TEST_PG_URL), and the migrated stores tests copy.
    globalSetup: ['test/helpers/global-setup.ts'],
    // A hang fails in seconds; files that sync, spawn the CLI or run a daemon opt in to more
    // (test/helpers/timeouts.ts). Time-outs catch a hang; they are not a measure (timings belong in bench/).
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // A worker runs file after file in one process: loading the sandbox, the sync and both drivers again
    // for each of 165 files cost more CPU than some tests. Files share no state but what they close.
    isolate: false,
    // Twice the cores: many files wait (on a paced minute, a retry's back-off, a child process) while
    // others compute, and the waits overlap the work. As many kept as started: with isolation off, tinypool
    // ending an idle worker mid-run races its teardown and fails the run ("Terminating worker thread").
    poolOptions: { forks: { maxForks: WORKERS, minForks: WORKERS } },
    // Long and idle files start first (test/helpers/sequencer.ts), so none is the run's tail.
    sequence: { sequencer: (await import('./test/helpers/sequencer.js')).default },
  },
});
