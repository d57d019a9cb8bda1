import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/sequencer.js';
import { UNIT } from './test/helpers/timeouts.js';

const WORKERS = availableParallelism() * 2;

export default defineConfig({
  test: {
    // One PostgreSQL server for the whole run (or DS_TEST_PG_URL), and the migrated stores tests copy.
    globalSetup: ['test/helpers/global-setup.ts'],
    // Each file's bound on its tests (test/helpers/file-timeouts.ts); DS_TEST_CPU_LOG=<file>: each file's
    // wall and CPU time, appended to <file> (test/helpers/file-cpu.ts).
    setupFiles: ['test/helpers/file-timeouts.ts', ...(process.env.DS_TEST_CPU_LOG ? ['test/helpers/file-cpu.ts'] : [])],
    pool: 'forks',
    // A worker runs file after file in one process: loading the sandbox, the sync and both drivers again
    // for each of 165 files cost more CPU than some tests. Files share no state but what they close.
    isolate: false,
    // Twice the cores: many files wait (on a paced minute, a retry's back-off, a child process) while
    // others compute, and the waits overlap the work. As many kept as started: with isolation off, tinypool
    // ending an idle worker mid-run races its teardown and fails the run ("Terminating worker thread").
    // A worker thread a test starts from TypeScript (the SQLite writer's) gets tsx's loader (scripts/ts-threads.cjs).
    poolOptions: { forks: { maxForks: WORKERS, minForks: WORKERS, execArgv: ['--require', resolve('scripts/ts-threads.cjs')] } },
    // Long and idle files start first, so none is the run's tail.
    sequence: { sequencer: SlowFirstSequencer },
    include: ['test/**/*.test.ts'],
    // A hang fails in seconds; files whose first line says `// @end-to-end` or `// @real-clock` get more
    // (test/helpers/file-timeouts.ts). Time-outs catch a hang; they are not a measure (timings belong in bench/).
    testTimeout: UNIT,
    hookTimeout: UNIT,
  },
});
