// The shape a `monitoring_event` delivery should have (the spec's Events > Envelope), and what one delivery
// showed of another: a field the spec does not list (new), a field the receiver needs gone (missing), a field
// in another JSON type. A time sent as Unix seconds and a boolean sent as `"true"`/`"false"` are taken without
// loss (in a copy: the body is stored as received); anything else the envelope check then refuses, and the
// delivery is set aside whole with its reason (webhook-requests.ts).
import { exampleOf, type JsonType, jsonTypeOf } from '../json-types.js';

/** What a change of shape is called in `schema_changes.stream`. */
export const DELIVERY_STREAM = 'webhook-deliveries';

interface Field {
  type: JsonType;
  required: boolean;
  /** What the value must be beyond its JSON type, as `expected_type` says it. */
  form?: string;
}

const UUID = { type: 'string', required: true, form: 'UUID' } as const;
const TIME = { type: 'string', required: true, form: 'RFC 3339 time' } as const;
const TEXT = { type: 'string', required: true } as const;
const OBJECT = { type: 'object', required: true } as const;

/** Every field of the envelope by dotted path (arrays are not looked into: their items are one field). */
const ENVELOPE: Readonly<Record<string, Field>> = {
  id: UUID,
  type: { ...TEXT, form: 'monitoring_event' },
  timestamp: TIME,
  data: OBJECT,
  'data.view': OBJECT,
  'data.view.id': UUID,
  'data.view.name': TEXT,
  'data.event': OBJECT,
  'data.event.id': UUID,
  'data.event.title': TEXT,
  'data.assets': { type: 'array', required: false },
  'data.latest_development': OBJECT,
  'data.latest_development.id': UUID,
  'data.latest_development.title': TEXT,
  'data.latest_development.summary': TEXT,
  'data.latest_development.category': { type: 'array', required: false },
  'data.latest_development.subcategory': { type: 'array', required: false },
  'data.latest_development.importance': { type: 'string', required: false, form: 'low|medium|high' },
  'data.latest_development.actionable': { type: 'boolean', required: true },
  'data.latest_development.created_at': TIME,
  'data.latest_development.started_at': TIME,
  'data.latest_development.ended_at': { ...TIME, required: false },
};

export type DeliveryChangeKind = 'new' | 'missing' | 'other type';

/** One difference a delivery showed; `coerced` when it was taken without loss. */
export interface DeliveryChange {
  path: string;
  kind: DeliveryChangeKind;
  seen: string;
  expected: string;
  coerced: boolean;
  example: string | null;
}

export function expectedText(path: string): string {
  const field = ENVELOPE[path];
  if (!field) return '';
  return field.form ? `${field.type} (${field.form})` : field.type;
}

/**
 * The changes of shape `json` shows, with the loss-free coercions made in `json` itself (the caller passes
 * a copy it may change). A parent that is not an object is one change: its children are not looked at.
 */
export function deliveryChanges(json: unknown): DeliveryChange[] {
  const changes: DeliveryChange[] = [];
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return [{ path: '(root)', kind: 'other type', seen: jsonTypeOf(json), expected: 'object', coerced: false, example: null }];
  }
  walk(json as Record<string, unknown>, '', changes);
  return changes;
}

function walk(object: Record<string, unknown>, prefix: string, changes: DeliveryChange[]): void {
  for (const key of Object.keys(object)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const value = object[key];
    const field = ENVELOPE[path];
    if (!field) {
      changes.push({ path, kind: 'new', seen: jsonTypeOf(value), expected: '', coerced: false, example: exampleOf(path, value) });
      continue; // a new object is one new field
    }
    const seen = jsonTypeOf(value);
    if (seen !== field.type) {
      const taken = coerce(value, field);
      if (taken !== undefined) object[key] = taken;
      changes.push({
        path,
        kind: 'other type',
        seen,
        expected: expectedText(path),
        coerced: taken !== undefined,
        example: exampleOf(path, value),
      });
      continue;
    }
    if (seen === 'object') walk(value as Record<string, unknown>, path, changes);
  }
  for (const [path, field] of Object.entries(ENVELOPE)) {
    if (!field.required || parentOf(path) !== prefix) continue;
    const key = path.slice(prefix ? prefix.length + 1 : 0);
    if (!(key in object)) changes.push({ path, kind: 'missing', seen: '', expected: expectedText(path), coerced: false, example: null });
  }
}

function parentOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

/** The value in the field's type when nothing is lost (a time as Unix seconds, a boolean as text), else undefined. */
function coerce(value: unknown, field: Field): unknown {
  if (field.form === 'RFC 3339 time' && typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    // Whole milliseconds only: a finer fraction would not come back the same.
    const ms = value * 1000;
    return Number.isInteger(ms) ? new Date(ms).toISOString() : undefined;
  }
  if (field.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return undefined;
}
