// One PostgreSQL server for the whole test run: DS_TEST_PG_URL when given, else a throwaway cluster.
// Every store test runs on both dialects, so no PostgreSQL is a loud failure, never a skip.
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { startPgCluster } from './pg-cluster.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const given = process.env.DS_TEST_PG_URL;
  if (given) {
    project.provide('pgUrl', given);
    return () => dropTestSchemas(given);
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

/** The schemas the tests made on a server that outlives the run (DS_TEST_PG_URL). */
async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 't\\_%'");
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}
