// Loss-free coercions of a value that came in another JSON type than the mirror keeps: an exact numeric
// string for a number, an ISO time with its zone for Unix seconds and back, a number or `true`/`false` text
// where text or a boolean is kept. Anything else cannot be taken without loss: the record is quarantined
// naming the field (pass-shape.ts). JSON.parse already reads an integral float (`3.0`) as the integer.
import type { JsonType } from '../../json-types.js';

/** What a field is kept as: a JSON type, and for a time which form (`/v1` Unix seconds or ISO text). */
export interface Target {
  type: JsonType;
  time: 'unix' | 'iso' | null;
}

/** The value in the target's type, or LOSSY. */
export const LOSSY: unique symbol = Symbol('lossy');

const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.(\d+))?(?:[eE][+-]?\d+)?$/;
/** Significant digits a double carries exactly (a longer decimal would come back as another number). */
const EXACT_DIGITS = 15;
/** An ISO 8601 time with its zone: without one, its instant is unknown. */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
/** Above this a Unix time is read as milliseconds (10^11 seconds is the year 5138). */
const MILLISECONDS_FROM = 1e11;

export function coerce(value: unknown, target: Target): unknown {
  if (target.time === 'unix' && typeof value === 'string') return unixSecondsOf(value);
  if (target.time === 'iso' && typeof value === 'number') return isoTextOf(value);
  switch (target.type) {
    case 'number':
      return typeof value === 'string' ? exactNumberOf(value) : LOSSY;
    case 'string':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : LOSSY;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : LOSSY;
    default:
      return LOSSY;
  }
}

function exactNumberOf(text: string): number | typeof LOSSY {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return LOSSY;
  const digits = trimmed
    .replace(/[eE].*$/, '')
    .replace(/[-.]/g, '')
    .replace(/^0+/, '');
  if (digits.length > EXACT_DIGITS) return LOSSY;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : LOSSY;
}

function unixSecondsOf(text: string): number | typeof LOSSY {
  if (!ISO_WITH_ZONE.test(text)) return exactNumberOf(text); // "1717171717": seconds as text
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? LOSSY : ms / 1000;
}

function isoTextOf(seconds: number): string | typeof LOSSY {
  if (!Number.isFinite(seconds) || seconds < 0) return LOSSY;
  const time = new Date(seconds >= MILLISECONDS_FROM ? seconds : seconds * 1000);
  return Number.isNaN(time.getTime()) ? LOSSY : time.toISOString();
}
