// What every store can hold, checked before a write: a value that fails here would fail its whole
// statement (PostgreSQL refuses NUL and unpaired surrogates in text and jsonb, JSON.stringify overflows
// the stack on deep nesting), so it is refused or quarantined alone instead.

/** Nesting beyond this is refused: records of the service nest a handful of levels, JSON.stringify fails near 5,000. */
export const MAX_JSON_DEPTH = 100;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text on every store, or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return null;
}

/** Why a parsed JSON value cannot be stored (depth, or a string or key no store can hold), or null. Iterative: any depth is safe. */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return `a string ${problem}`;
    } else if (typeof v === 'number' && !Number.isFinite(v)) {
      // JSON's 1e400 parses to Infinity, which SQLite would store as Inf and JSON text as null: refused alike.
      return 'a number beyond the double range (such as 1e400)';
    } else if (v !== null && typeof v === 'object') {
      if (depth >= maxDepth) return `nested deeper than ${maxDepth} levels`;
      if (Array.isArray(v)) {
        for (const item of v) stack.push([item, depth + 1]);
      } else {
        for (const [key, item] of Object.entries(v)) {
          const problem = textProblem(key);
          if (problem) return `a field name ${problem}`;
          stack.push([item, depth + 1]);
        }
      }
    }
  }
  return null;
}

/**
 * JSON text of a record for the quarantine, whatever it holds: escapes PostgreSQL's jsonb refuses
 * (\u0000, unpaired surrogates) become U+FFFD, and a record too deep to serialise is kept as a note.
 */
export function quarantineJson(record: unknown): string | null {
  if (record === null || record === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(jsonProblem(record)?.startsWith('nested') ? { unserialisable: 'nested too deep to store' } : record);
  } catch (err) {
    text = JSON.stringify({ unserialisable: err instanceof Error ? err.message : String(err) });
  }
  return text.includes('\\u') ? text.replace(/\\u(0000|d[89a-f][0-9a-f]{2})/g, '\\ufffd') : text;
}
