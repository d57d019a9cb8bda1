// Kysely sends every query unnamed, so PostgreSQL parses and plans it again each time. The upsert
// sends the same text for every page of a table: texts marked PREPARED get a stable name, and pg
// prepares them once per connection (measured 1.05-1.45x faster on pages of 100).
import { createHash } from 'node:crypto';
import type { PostgresPool } from 'kysely';
import type pg from 'pg';

export const PREPARED = '/* prepared */ ';

export function preparedStatementPool(pool: pg.Pool): PostgresPool {
  const patched = new WeakSet<pg.PoolClient>();
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `ds_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    async connect() {
      const client = await pool.connect();
      if (!patched.has(client)) {
        patched.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
        client.query = ((text: unknown, values?: unknown[]) =>
          typeof text === 'string' && text.startsWith(PREPARED)
            ? query({ name: nameOf(text), text, values })
            : query(text, values)) as typeof client.query;
      }
      return client;
    },
    end: () => pool.end(),
  };
}
