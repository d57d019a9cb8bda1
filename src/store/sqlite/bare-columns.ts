// Which output columns of a SELECT read a table's column as it is (`r.id`, `r.id as id`): the typed views
// leave those uncast, so that SQLite can still use an index on them (`where id = ?` and joins), while a
// cast column cannot. Reads the outermost select list and FROM clause only (after any WITH clause),
// skipping what is inside parentheses and quotes. A column of a subquery in FROM is bare too (it keeps the
// type of what the subquery reads, and a filter on it reaches the table: versions views read a UNION ALL
// of stored values so); a column of a WITH table is not.

const BARE = /^"?([a-z_]\w*)"?\."?([a-z_]\w*)"?(?:\s+as\s+"?(\w+)"?)?$/i;
const KEYWORDS = new Set(['on', 'where', 'left', 'join', 'inner', 'cross', 'group', 'order', 'limit', 'union']);

/** The depth-0 text of `sql`, what is inside parentheses and quotes blanked (same length). */
function topLevel(sql: string): string {
  let depth = 0;
  let quote: string | null = null;
  let out = '';
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ' ';
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += depth === 0 ? ch : ' ';
    } else if (ch === '(') {
      out += depth++ === 0 ? ch : ' ';
    } else if (ch === ')') {
      out += --depth === 0 ? ch : ' ';
    } else out += depth === 0 ? ch : ' ';
  }
  return out;
}

/** The aliases of the tables (and views) the FROM clause of `top` (depth-0 text) reads. */
function tableAliases(top: string, from: number): Set<string> {
  const withTables = new Set([...top.matchAll(/(?:\bwith\b|,)\s*(\w+)\s+as\s*\(/gi)].map((m) => m[1]!.toLowerCase()));
  const aliases = new Set<string>();
  for (const m of top.slice(from).matchAll(/\b(?:from|join)\s+(\w+)(?:\s+(?:as\s+)?(\w+))?/gi)) {
    const alias = m[2] && !KEYWORDS.has(m[2].toLowerCase()) ? m[2] : m[1]!;
    if (!withTables.has(m[1]!.toLowerCase())) aliases.add(alias.toLowerCase());
  }
  // A subquery in FROM (its text blanked): its columns keep the declared types of what they read.
  for (const m of top.slice(from).matchAll(/\b(?:from|join)\s+\(\s*\)\s+(?:as\s+)?(\w+)/gi)) aliases.add(m[1]!.toLowerCase());
  return aliases;
}

export function bareColumns(select: string): Set<string> {
  const top = topLevel(select);
  const start = [...top.matchAll(/\bselect\b/gi)].at(-1);
  const from = start ? /\bfrom\b/i.exec(top.slice(start.index)) : null;
  if (!start || !from) return new Set();
  const tables = tableAliases(top, start.index + from.index);
  const list = select.slice(start.index + 'select'.length, start.index + from.index);
  const bare = new Set<string>();
  let at = 0;
  for (const comma of [...topLevel(list).matchAll(/,/g), { index: list.length }]) {
    const m = BARE.exec(list.slice(at, comma.index).trim());
    if (m && tables.has(m[1]!.toLowerCase())) bare.add(m[3] ?? m[2]!);
    at = comma.index! + 1;
  }
  return bare;
}
