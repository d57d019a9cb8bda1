// The oldest SQLite that runs here: sql.js 1.6.2 (a WebAssembly build of SQLite 3.36.0; no sql.js release
// bundles 3.37), installed under the alias sqlite-3.36-wasm. Older than the minimum the docs state (3.37),
// so what opens in it opens in every SQLite from there on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface OldDatabase {
  exec(sql: string): { columns: string[]; values: unknown[][] }[];
  run(sql: string, params?: unknown[]): void;
  close(): void;
}

interface SqlJs {
  Database: new (data?: Uint8Array) => OldDatabase;
}

const require = createRequire(import.meta.url);

let loaded: Promise<SqlJs> | undefined;

/** The module, loaded once; its wasm is handed over as bytes (its loader would fetch() a path under Node 20). */
export function oldSqlite(): Promise<SqlJs> {
  const init = require('sqlite-3.36-wasm') as (o: { wasmBinary: Uint8Array }) => Promise<SqlJs>;
  loaded ??= init({ wasmBinary: readFileSync(require.resolve('sqlite-3.36-wasm/dist/sql-wasm.wasm')) });
  return loaded;
}

/**
 * A database file opened in memory. A WAL file's header says so (bytes 18-19 = 2) and the in-memory build
 * cannot open the WAL; a closed, checkpointed file holds everything, so the header is set back to the
 * rollback journal for this copy.
 */
export async function openOldCopy(file: string): Promise<OldDatabase> {
  const bytes = new Uint8Array(readFileSync(file));
  bytes[18] = 1;
  bytes[19] = 1;
  return new (await oldSqlite()).Database(bytes);
}

/** How many rows `select *` gives: every column of every row evaluated. */
export function rowCount(db: OldDatabase, name: string): number {
  return db.exec(`select * from "${name}"`)[0]?.values.length ?? 0;
}
