import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One throwaway PostgreSQL cluster for the whole run (or DS_TEST_PG_URL).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Generous: on a loaded machine end-to-end tests run several times slower. Time-outs catch a hang;
    // they are not a measure (timings belong in bench/).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
