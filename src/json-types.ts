// The JSON types the shape is told in, and a value's type as an index (the observer counts by index, so a
// record's fields cost an array increment each, not a string).
export const JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

export const OBJECT = 3;
export const ARRAY = 4;
export const NULL = 5;

export function typeIndex(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 0;
    case 'number':
      return 1;
    case 'boolean':
      return 2;
    case 'object':
      return value === null ? NULL : Array.isArray(value) ? ARRAY : OBJECT;
    default:
      return NULL; // undefined: as good as absent
  }
}

export function jsonTypeOf(value: unknown): JsonType {
  return JSON_TYPES[typeIndex(value)]!;
}

/** Types as kept in `schema_fields.json_types`: `|`-separated, in JSON_TYPES order, nulls left out. */
export function typesText(types: Iterable<JsonType>): string {
  const set = new Set(types);
  return JSON_TYPES.filter((t) => t !== 'null' && set.has(t)).join('|');
}

export function parseTypes(text: string): JsonType[] {
  return text === '' ? [] : (text.split('|') as JsonType[]);
}

const SECRET_NAME = /secret|password|passwd|api[_-]?key|signature|authorization|credential/i;
const EXAMPLE_CHARS = 40;

/** One short example of a value for the record of a change: cut short, and never a field named like a secret. */
export function exampleOf(path: string, value: unknown): string {
  if (SECRET_NAME.test(path)) return '(not shown)';
  if (Array.isArray(value)) return `[${value.length} item(s)]`;
  if (value !== null && typeof value === 'object') return `{${Object.keys(value).slice(0, 4).join(', ')}}`.slice(0, EXAMPLE_CHARS);
  const text = JSON.stringify(value) ?? 'null';
  return text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS - 1)}…` : text;
}
