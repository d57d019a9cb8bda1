// One PostgreSQL server for the whole test run: DS_TEST_PG_URL when given, else a throwaway cluster.
// Every store test runs on both dialects, so no PostgreSQL is a loud failure, never a skip.
import type { TestProject } from 'vitest/node';
import { startPgCluster } from './pg-cluster.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const given = process.env.DS_TEST_PG_URL;
  if (given) {
    project.provide('pgUrl', given);
    return;
  }
  let cluster;
  try {
    cluster = await startPgCluster();
  } catch (err) {
    throw new Error(
      'The test suite runs every store test on SQLite and on PostgreSQL, and no PostgreSQL server could be ' +
        `started: ${(err as Error).message}. Install the server binaries (apt-get install -y postgresql) or set ` +
        'DS_TEST_PG_URL=postgres://user@host:port/db to use a running server.',
    );
  }
  project.provide('pgUrl', cluster.url);
  return () => cluster.stop();
}
