// Migrated once per run, copied for each test: replaying every migration and repeatable object costs
// 0.2-0.8 s a store, and the suite opens several hundred. A SQLite store is a copy of a migrated file;
// a PostgreSQL store is a database cloned from a migrated template (CREATE DATABASE ... TEMPLATE).
// Either is then opened through openStore as before, which finds its ledger complete and migrates nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';
import { openStore } from '../../src/store/index.js';

/** The schema every cloned PostgreSQL store has (each in a database of its own). */
export const TEMPLATE_SCHEMA = 't_mirror';

export interface StoreTemplates {
  /** A migrated SQLite file, never opened by a test (they get copies). */
  sqliteFile: string;
  /** A migrated PostgreSQL database nobody connects to, or '' when the server refuses CREATE DATABASE. */
  pgDatabase: string;
  /** Prefix of this run's databases (template and clones), to drop what a test left behind. */
  pgPrefix: string;
  drop(): Promise<void>;
}

export async function makeStoreTemplates(pgUrl: string): Promise<StoreTemplates> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-template-'));
  const sqliteFile = join(dir, 'mirror.db');
  await (await openStore({ url: `sqlite:${sqliteFile}`, migrations: MIRROR_SCHEMA })).close();

  const pgPrefix = `t_${randomBytes(3).toString('hex')}`;
  const pgDatabase = `${pgPrefix}_template`;
  const made = await withAdmin(pgUrl, (admin) => admin.query(`create database ${pgDatabase}`)).then(
    () => true,
    () => false, // no CREATEDB right on a given server: each test migrates a schema of its own instead
  );
  if (made) await (await openStore({ url: databaseUrl(pgUrl, pgDatabase), schema: TEMPLATE_SCHEMA, migrations: MIRROR_SCHEMA })).close();
  return {
    sqliteFile,
    pgDatabase: made ? pgDatabase : '',
    pgPrefix,
    async drop() {
      rmSync(dir, { recursive: true, force: true });
      if (made) await dropDatabases(pgUrl, pgPrefix);
    },
  };
}

/** The server's URL with another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function withAdmin<T>(pgUrl: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A statement on the server's admin database through one connection kept per test process: each CREATE
 * and DROP DATABASE of a test store on a connection of its own started a server backend for it (about
 * 8 ms of the server's CPU each, two per store). A connection lost meanwhile is opened again, once.
 */
export async function adminQuery(pgUrl: string, text: string, retried = false): Promise<void> {
  let admin = admins.get(pgUrl);
  if (!admin) {
    admin = connectAdmin(pgUrl);
    admins.set(pgUrl, admin);
  }
  try {
    await (await admin).query(text);
  } catch (err) {
    if (admins.get(pgUrl) === admin) admins.delete(pgUrl);
    await admin.then((c) => c.end()).catch(() => {});
    // A statement the server refused has a SQLSTATE of its class; a lost connection has none, or 08/57.
    const code = (err as { code?: string }).code ?? '';
    const lostConnection = !/^[0-9A-Z]{5}$/.test(code) || code.startsWith('08') || code.startsWith('57');
    if (retried || !lostConnection) throw err;
    await adminQuery(pgUrl, text, true);
  }
}

const admins = new Map<string, Promise<pg.Client>>();

function connectAdmin(pgUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pgUrl });
  const connecting = client.connect().then(() => {
    // Kept for the process's life without keeping the process alive.
    (client as unknown as { connection: { stream: { unref?(): void } } }).connection.stream.unref?.();
    return client;
  });
  // An idle connection's 'error' (the server gone) must not end the test process: the next query opens another.
  client.on('error', () => {
    if (admins.get(pgUrl) === connecting) admins.delete(pgUrl);
  });
  return connecting;
}

async function dropDatabases(pgUrl: string, prefix: string): Promise<void> {
  await withAdmin(pgUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  });
}
