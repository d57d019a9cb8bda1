import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
    // One test file per core: most of a file's time is CPU (the sandbox, the sync, its database).
    poolOptions: { forks: { maxForks: availableParallelism(), minForks: 1 } },
  },
});
