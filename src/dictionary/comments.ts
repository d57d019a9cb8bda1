// The dictionary as PostgreSQL comments (pg_description), so BI tools and psql's \d+ show it. Only the
// tables, views and columns that exist are commented: a migration applies this at its place in the
// sequence, when later tables may not exist yet.
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

/** Tables and views of the current schema with their columns. */
export async function existingRelations(db: Kysely<unknown>): Promise<Map<string, Set<string>>> {
  const { rows } = await sql<{ relation: string; column: string }>`
    select c.relname as relation, a.attname as column
    from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(db);
  const relations = new Map<string, Set<string>>();
  for (const r of rows) relations.set(r.relation, (relations.get(r.relation) ?? new Set()).add(r.column));
  return relations;
}

/** All in one round trip (a query without parameters may hold several statements): hundreds of them. */
export async function applyComments(db: Kysely<unknown>, docs: readonly TableDoc[]): Promise<number> {
  const statements = commentStatements(docs, await existingRelations(db));
  if (statements.length > 0) await sql.raw(statements.join(';\n')).execute(db);
  return statements.length;
}
