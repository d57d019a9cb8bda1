// The dictionary as comments on the tables, views and columns (COMMENT ON, where the store keeps them:
// PostgreSQL), so BI tools and psql's \d+ show it. Only those that exist (`existing`, read by the store's
// analyst SQL) are commented.
import { sql, type Kysely } from 'kysely';
import type { TableDoc } from './types.js';

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function commentStatements(docs: readonly TableDoc[], existing: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const statements: string[] = [];
  for (const t of docs) {
    const columns = existing.get(t.name);
    if (!columns) continue;
    statements.push(`comment on ${t.kind === 'view' ? 'view' : 'table'} ${ident(t.name)} is ${literal(t.description)}`);
    for (const c of t.columns) {
      if (columns.has(c.name)) statements.push(`comment on column ${ident(t.name)}.${ident(c.name)} is ${literal(c.description)}`);
    }
  }
  return statements;
}

/** All in one round trip (a query without parameters may hold several statements): hundreds of them. */
export async function applyComments(
  db: Kysely<unknown>,
  docs: readonly TableDoc[],
  existing: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<number> {
  const statements = commentStatements(docs, existing);
  if (statements.length > 0) await sql.raw(statements.join(';\n')).execute(db);
  return statements.length;
}
