// A migrated PostgreSQL store in a database of its own, copied from the run's template (store-templates.ts):
// for tests that terminate every backend of their database or lock its tables, which must never touch
// another file's store. own-database.ts gives an empty database that the test then migrates, about 0.5 s of
// the test's CPU and more of the server's; a copy of the template costs the server a fraction of that.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { adminQuery, databaseUrl, TEMPLATE_SCHEMA } from './store-templates.js';

export interface OwnCopy {
  /** The database's name, a URL to it, and the schema the mirror is in. */
  name: string;
  url: string;
  schema: string;
  /** A connection to the cluster's own database, outside the copy (to terminate or inspect its backends). */
  admin: pg.Client;
  drop(): Promise<void>;
}

export async function createOwnCopy(prefix: string): Promise<OwnCopy> {
  const server = inject('pgUrl');
  const template = inject('pgTemplate');
  // Without a template (a given server that refuses CREATE DATABASE) there is no database of the test's own to copy into.
  if (!template) throw new Error('a database of its own needs CREATE DATABASE on the test server');
  const name = `${inject('pgPrefix')}_${prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(server, `create database ${name} template ${template}`);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  return {
    name,
    url: databaseUrl(server, name),
    schema: TEMPLATE_SCHEMA,
    admin,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}
