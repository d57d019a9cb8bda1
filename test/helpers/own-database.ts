// A PostgreSQL database of a test's own, in the run's cluster: for tests that kill backends or lock
// tables, which must never touch the schemas other test files work in at the same time.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface OwnDatabase {
  /** Its name, and a URL to it. */
  name: string;
  url: string;
  /** A connection to the cluster's own database, outside the test's (to terminate or inspect its backends). */
  admin: pg.Client;
  drop(): Promise<void>;
}

export async function createOwnDatabase(prefix: string): Promise<OwnDatabase> {
  const admin = new pg.Client(inject('pgUrl'));
  await admin.connect();
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${name}`);
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}
