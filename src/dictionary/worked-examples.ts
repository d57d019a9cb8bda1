// The worked examples (docs/analyst.md) are data: docs/examples/NN-name.sql (one query, its question in the
// leading comment), or NN-name.sqlite.sql and NN-name.postgres.sql where the two stores need different
// SQL. A test runs each on both stores; `npm run docs:schema` renders them into docs/analyst.md.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Dialect } from '../store/types.js';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../docs/examples/', import.meta.url));
const FILE = /^(\d{2}-[a-z0-9-]+?)(?:\.(sqlite|postgres))?\.sql$/;

export interface WorkedExample {
  name: string;
  question: string;
  /** The SQL per store (the same text when the example has one file). */
  sql: Record<Dialect, string>;
}

function parse(text: string): { question: string; sql: string } {
  const lines = text.trim().split('\n');
  const comment = lines.filter((l, i) => l.startsWith('--') && lines.slice(0, i).every((p) => p.startsWith('--')));
  return {
    question: comment.map((l) => l.replace(/^--\s?/, '')).join(' '),
    sql: lines.slice(comment.length).join('\n').replace(/;\s*$/, ''),
  };
}

export function workedExamples(dir = EXAMPLES_DIR): WorkedExample[] {
  const byName = new Map<string, Partial<Record<Dialect | 'both', { question: string; sql: string }>>>();
  for (const file of readdirSync(dir).sort()) {
    const match = FILE.exec(file);
    if (!match) continue;
    const entry = byName.get(match[1]) ?? {};
    entry[(match[2] as Dialect | undefined) ?? 'both'] = parse(readFileSync(dir + file, 'utf8'));
    byName.set(match[1], entry);
  }
  return [...byName].map(([name, e]) => {
    const sqlite = e.sqlite ?? e.both;
    const postgres = e.postgres ?? e.both;
    if (!sqlite || !postgres) throw new Error(`docs/examples/${name}: needs one .sql file, or both a .sqlite.sql and a .postgres.sql`);
    return { name, question: sqlite.question, sql: { sqlite: sqlite.sql, postgres: postgres.sql } };
  });
}

export function examplesMarkdown(examples: readonly WorkedExample[]): string {
  const parts: string[] = [];
  for (const e of examples) {
    parts.push(`#### ${e.question}`, '');
    if (e.sql.sqlite === e.sql.postgres) parts.push('```sql', `${e.sql.sqlite};`, '```', '');
    else parts.push('SQLite:', '', '```sql', `${e.sql.sqlite};`, '```', '', 'PostgreSQL:', '', '```sql', `${e.sql.postgres};`, '```', '');
  }
  return parts.join('\n');
}
