// A page of rows as one jsonb parameter, `[[v1, v2, ...], ...]`, read back column by column with
// `e->>i` cast to the column's type. Cheaper at both ends than one array parameter per column: the
// scalar columns of a row are written by one native JSON.stringify, and JSON text (the raw record,
// json columns) is appended as it is, with no escaping to add in Node and take out in PostgreSQL
// (bench/store-upsert.ts measures the forms side by side).

export interface JsonbRows {
  /** The select list reading the columns back from the jsonb row `e`, in the table's column order. */
  select: string;
  /** The rows (values as `toDb` left them: JSON columns hold JSON text) as the jsonb parameter. */
  encode(rows: readonly (readonly unknown[])[]): string;
}

const isJson = (type: string) => type === 'jsonb' || type === 'json';

/** Scalar columns first, then the JSON columns, whatever their order in the table. */
export function jsonbRows(types: readonly string[], names: readonly string[]): JsonbRows {
  const scalarAt = types.flatMap((type, i) => (isJson(type) ? [] : [i]));
  const jsonAt = types.flatMap((type, i) => (isJson(type) ? [i] : []));
  const textual = scalarAt.map((i) => types[i] === 'text');
  const position = new Map([...scalarAt, ...jsonAt].map((column, at) => [column, at]));
  const select = types
    .map((type, column) => {
      const at = position.get(column)!;
      // JSON null is SQL NULL in every column, as it is in the other store.
      if (isJson(type)) return type === 'jsonb' ? `nullif(e->${at}, 'null'::jsonb)` : `nullif(e->${at}, 'null'::jsonb)::json`;
      return type === 'text' ? `e->>${at}` : `(e->>${at})::${type}`;
    })
    .join(', ');

  function encode(rows: readonly (readonly unknown[])[]): string {
    const lines = new Array<string>(rows.length);
    const scalars = new Array<unknown>(scalarAt.length);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (let k = 0; k < scalarAt.length; k++) scalars[k] = scalar(row[scalarAt[k]!], textual[k]!);
      let line = JSON.stringify(scalars);
      if (jsonAt.length > 0) {
        line = line.slice(0, -1);
        for (const i of jsonAt) line += `${line.length > 1 ? ',' : ''}${jsonText(row[i], names[i]!)}`;
        line += ']';
      }
      lines[r] = line;
    }
    return `[${lines.join(',')}]`;
  }

  return { select, encode };
}

/** A value JSON.stringify writes as PostgreSQL reads it back with `->>` and a cast. */
function scalar(v: unknown, textColumn: boolean): unknown {
  switch (typeof v) {
    case 'number':
      // NaN and ±Infinity as text (double precision reads them); numbers in a text column as JS prints them.
      return textColumn || !Number.isFinite(v) ? String(v) : v;
    case 'bigint':
      return v.toString();
    case 'boolean':
      return textColumn ? String(v) : v;
    default:
      return v;
  }
}

function jsonText(v: unknown, column: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v !== 'string') return JSON.stringify(v);
  // Appended unquoted, a text that is not one JSON value could add elements to the row (shifting
  // columns, or smuggling in a row): only a single balanced value is let through.
  if (!isSingleJsonValue(v)) throw new Error(`column "${column}" holds text that is not one JSON value`);
  return v;
}

/**
 * Whether `text` cannot spill out of its place in the array: no comma outside brackets and strings,
 * brackets balanced, strings closed. PostgreSQL's parser rejects whatever else is not JSON.
 */
export function isSingleJsonValue(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (--depth < 0) return false;
    } else if (c === 0x2c && depth === 0) return false;
  }
  return depth === 0 && text.length > 0;
}

/** The index of the quote that closes the string opened at `open`, or -1 (indexOf skips the string's body). */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  while (at > 0) {
    let before = at - 1;
    while (text.charCodeAt(before) === 0x5c) before--;
    if ((at - 1 - before) % 2 === 0) return at; // an even run of backslashes escapes only itself
    at = text.indexOf('"', at + 1);
  }
  return -1;
}
