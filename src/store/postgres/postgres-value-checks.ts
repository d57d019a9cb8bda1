// Whether a value (as toDb left it: string, number, boolean or null) fits a PostgreSQL column type,
// checked in JS before a page is written: one record with a string in a bigint column or a NUL in a
// text would otherwise fail the page's one statement, and with it the page on every run. Only what
// certainly fails is refused here; anything subtler is caught by the row-by-row retry.
import { textProblem } from '../storable.js';

export type ValueCheck = (value: unknown) => string | null;

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const FLOAT_TEXT = /^\s*([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?inf(inity)?|nan)\s*$/i;
const RANGES: Record<string, bigint> = { smallint: 2n ** 15n, integer: 2n ** 31n, bigint: 2n ** 63n };
// Escapes jsonb refuses: \u0000 and UTF-16 surrogates (paired ones are fine; JSON.stringify never writes those as escapes).
const SUSPECT_ESCAPE = /\\u(0000|d[89a-f])/i;

const describe = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`);

function integerCheck(type: string): ValueCheck {
  const limit = RANGES[type]!;
  const inRange = (n: bigint) => n >= -limit && n < limit;
  return (v) => {
    if (v === null) return null;
    if (typeof v === 'number') return Number.isInteger(v) && inRange(BigInt(v)) ? null : `${v} is not a ${type}`;
    if (typeof v === 'string') return INTEGER_TEXT.test(v) && inRange(BigInt(v.trim())) ? null : `the text ${preview(v)} is not a ${type}`;
    return `${describe(v)} is not a ${type}`;
  };
}

const floatCheck: ValueCheck = (v) => {
  if (v === null || typeof v === 'number') return null;
  if (typeof v === 'string') return FLOAT_TEXT.test(v) ? null : `the text ${preview(v)} is not a number`;
  return `${describe(v)} is not a number`;
};

const notBoolean: ValueCheck = (v) =>
  typeof v === 'boolean' ? 'a boolean is not a time' : typeof v === 'number' ? 'a number is not a time' : null;

const textCheck: ValueCheck = (v) => (typeof v === 'string' ? textProblem(v) : null);

const jsonCheck: ValueCheck = (v) => {
  if (typeof v !== 'string' || !SUSPECT_ESCAPE.test(v)) return null;
  // A literal backslash before "u0000" matches too: only the parsed strings tell.
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return null; // not JSON text: PostgreSQL's own error, through the row-by-row retry
  }
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return `a JSON string ${problem}`;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, value] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return `a JSON field name ${problem}`;
        stack.push(value);
      }
    }
  }
  return null;
};

/** The check for a column of this type (format_type's name), or null when anything the driver sends is accepted. */
export function valueCheck(type: string): ValueCheck | null {
  if (type in RANGES) return integerCheck(type);
  if (type === 'double precision' || type === 'real' || type === 'numeric') return floatCheck;
  if (type === 'text' || type.startsWith('character')) return textCheck;
  if (type === 'jsonb' || type === 'json') return jsonCheck;
  if (type.startsWith('timestamp') || type === 'date') return notBoolean;
  return null;
}

function preview(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
