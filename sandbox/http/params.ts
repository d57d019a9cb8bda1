// Query validation with the limits of the spec and class-validator-style messages. Array parameters
// accept repeated keys and comma-separated values alike (sandbox/README.md); a scalar given twice is invalid.
import { parseIsoDate } from '../core/dates.js';
import { badRequest } from './http-error.js';

export type ParamSpec =
  | { type: 'int'; min: number; max: number; default?: number; required?: boolean }
  | { type: 'enum'; values: readonly string[]; default?: string; required?: boolean }
  | { type: 'string'; max: number; required?: boolean }
  | { type: 'strings'; maxLength: number; maxItems?: number; required?: boolean }
  | { type: 'ints'; min: number; max: number; maxItems?: number }
  | { type: 'bool'; nullable?: boolean; default?: boolean | null }
  | { type: 'date' }
  | { type: 'json'; max: number };

type Out<P> = P extends { type: 'int' }
  ? number
  : P extends { type: 'enum' | 'string' | 'date' | 'json' }
    ? string
    : P extends { type: 'strings' }
      ? string[]
      : P extends { type: 'ints' }
        ? number[]
        : P extends { type: 'bool' }
          ? boolean | null
          : never;

export type Parsed<S> = { [K in keyof S]: Out<S[K]> | undefined };

export const PAGE = { type: 'int', min: 1, max: 2147483647, default: 1 } as const;
export const ORDER_DIR = { type: 'enum', values: ['asc', 'desc'], default: 'asc' } as const;
export const SPARKLINE = { type: 'enum', values: ['7d'] } as const;
/** `expand` is ours (sandbox/README.md): a list of E field names, dotted for nested ones. */
export const EXPAND = { type: 'strings', maxLength: 255 } as const;

export function limit(max: number, def: number) {
  return { type: 'int', min: 1, max, default: def } as const;
}

/** Splits repeated keys and comma-separated values into one list, dropping empty items. */
export function listParam(q: URLSearchParams, key: string): string[] {
  const out: string[] = [];
  for (const raw of q.getAll(key)) for (const part of raw.split(',')) if (part.trim() !== '') out.push(part.trim());
  return out;
}

const INT = /^-?\d+$/;

export function parseQuery<S extends Record<string, ParamSpec>>(q: URLSearchParams, spec: S): Parsed<S> {
  const out: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [key, p] of Object.entries(spec)) {
    const given = q.getAll(key);
    if (p.type === 'strings' || p.type === 'ints') {
      const items = listParam(q, key);
      if (items.length === 0) {
        if (p.type === 'strings' && p.required) errors.push(`${key} should not be empty`);
        continue;
      }
      if (p.maxItems !== undefined && items.length > p.maxItems) {
        errors.push(`${key} must contain no more than ${p.maxItems} elements`);
      }
      if (p.type === 'strings') {
        if (items.some((s) => s.length > p.maxLength)) {
          errors.push(`each value in ${key} must be shorter than or equal to ${p.maxLength} characters`);
        }
        out[key] = items;
      } else {
        if (!items.every((s) => INT.test(s))) errors.push(`each value in ${key} must be an integer number`);
        else if (items.some((s) => Number(s) < p.min)) errors.push(`each value in ${key} must not be less than ${p.min}`);
        else if (items.some((s) => Number(s) > p.max)) errors.push(`each value in ${key} must not be greater than ${p.max}`);
        out[key] = items.map(Number);
      }
      continue;
    }
    if (given.length === 0) {
      const def = 'default' in p ? p.default : undefined;
      if ('required' in p && p.required) errors.push(`${key} should not be empty`);
      else if (def !== undefined) out[key] = def;
      continue;
    }
    const v = given.length === 1 ? given[0] : null; // a scalar sent twice is an array: invalid
    const err = checkScalar(key, p, v, out);
    if (err) errors.push(err);
  }
  if (errors.length) throw badRequest(errors);
  return out as Parsed<S>;
}

function checkScalar(key: string, p: ParamSpec, v: string | null, out: Record<string, unknown>): string | null {
  switch (p.type) {
    case 'int': {
      if (v === null || !INT.test(v)) return `${key} must be an integer number`;
      const n = Number(v);
      if (n < p.min) return `${key} must not be less than ${p.min}`;
      if (n > p.max) return `${key} must not be greater than ${p.max}`;
      out[key] = n;
      return null;
    }
    case 'enum':
      if (v === null || !p.values.includes(v)) return `${key} must be one of the following values: ${p.values.join(', ')}`;
      out[key] = v;
      return null;
    case 'string':
      if (v === null) return `${key} must be a string`;
      if (v.length > p.max) return `${key} must be shorter than or equal to ${p.max} characters`;
      out[key] = v;
      return null;
    case 'bool':
      if (v === 'true' || v === 'false') out[key] = v === 'true';
      else if (p.nullable && (v === 'null' || v === '')) out[key] = null;
      else return `${key} must be a boolean value`;
      return null;
    case 'date':
      if (v === null || parseIsoDate(v) === null) return `${key} must be a valid date in the form YYYY-MM-DD`;
      out[key] = v;
      return null;
    case 'json':
      if (v === null) return `${key} must be a json string`;
      if (v.length > p.max) return `${key} must be shorter than or equal to ${p.max} characters`;
      try {
        JSON.parse(v);
      } catch {
        return `${key} must be a json string`;
      }
      out[key] = v;
      return null;
    default:
      return null;
  }
}
