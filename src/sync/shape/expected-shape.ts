// The one place that knows the shape a stream's records should have: the catalog says which fields are
// typed columns (a path, a Unix or ISO time, a date) and which are required; the JSON type of a field the
// catalog does not type is the one every record of the passes before gave it (`schema_fields`), as dlt
// infers a column's type from its first load and holds it there.
import type { ColumnMap, ColumnSource } from '../../catalog/types.js';
import type { Target } from './coercions.js';
import type { JsonType } from '../../json-types.js';
import { inList, pathParts } from './field-slots.js';

/** A field as the passes before saw it: its JSON types (nulls left out) and the share of records carrying it. */
export interface KnownField {
  types: readonly JsonType[];
  share: number;
}

/** A typed field: where it is, what it is kept as, whether a record must carry it. */
export interface Expectation {
  path: string;
  parts: readonly string[];
  target: Target | null;
  required: boolean;
  /** Whether the path goes into a list's items (`assets[].id`): each item's value is checked. */
  inList: boolean;
}

export interface ExpectedShape {
  stream: string;
  /** The typed and required fields, parents before their children. */
  fields: readonly Expectation[];
  /** Every field the passes before saw (empty before the stream's first pass). */
  known: ReadonlyMap<string, KnownField>;
}

/** What a record of the stream is mapped by: its columns and required fields (a list, an event). */
export interface ShapeSource {
  columns: ColumnMap;
  required: readonly string[];
  /** Lists in the record whose items become rows of their own, by the list's field: the items' columns. */
  items?: Readonly<Record<string, { columns: ColumnMap }>>;
}

type Form = Target['time'] | 'date' | 'plain' | 'list';

export function expectedShape(stream: string, source: ShapeSource, known: ReadonlyMap<string, KnownField>): ExpectedShape {
  const declared = new Map<string, Form>();
  for (const column of Object.values(source.columns)) {
    const field = typedField(column);
    if (field) declared.set(field.path, field.form);
  }
  for (const [list, item] of Object.entries(source.items ?? {})) {
    declared.set(list, 'list');
    for (const column of Object.values(item.columns)) {
      const field = typedField(column);
      if (field) declared.set(`${list}[].${field.path}`, field.form);
    }
  }
  const paths = new Set<string>([...declared.keys(), ...source.required]);
  // A typed field's parents must be objects: an object that comes as a list empties every column under it.
  for (const path of [...paths]) {
    const parts = path.split('.');
    for (let i = 1; i < parts.length; i++) paths.add(parts.slice(0, i).join('.'));
  }
  const fields = [...paths]
    .sort((a, b) => a.split('.').length - b.split('.').length)
    .map((path): Expectation => {
      const form = declared.get(path);
      const nested = !declared.has(path) && !source.required.includes(path);
      const parts = pathParts(path);
      return {
        path,
        parts,
        inList: inList(parts),
        target: targetOf(form, nested ? 'object' : onlyType(known.get(path))),
        required: source.required.includes(path),
      };
    });
  return { stream, fields, known };
}

function typedField(source: ColumnSource): { path: string; form: Target['time'] | 'date' | 'plain' } | null {
  if (typeof source === 'string') return { path: source, form: 'plain' };
  if ('isoTime' in source) return { path: source.isoTime, form: 'iso' };
  if ('unixTime' in source) return typeof source.unixTime === 'string' ? { path: source.unixTime, form: 'unix' } : null;
  if ('isoDate' in source) return typeof source.isoDate === 'string' ? { path: source.isoDate, form: 'date' } : null;
  return null; // firstOf: a record the spec does not show, spelled either way
}

function targetOf(form: Form | undefined, known: JsonType | null): Target | null {
  if (form === 'list') return { type: 'array', time: null };
  if (form === 'unix') return { type: 'number', time: 'unix' };
  if (form === 'iso') return { type: 'string', time: 'iso' };
  if (form === 'date') return { type: 'string', time: null };
  return known ? { type: known, time: null } : null;
}

/** The one type every earlier record gave the field, or null (never seen, or seen in several types). */
function onlyType(field: KnownField | undefined): JsonType | null {
  return field?.types.length === 1 ? field.types[0]! : null;
}
