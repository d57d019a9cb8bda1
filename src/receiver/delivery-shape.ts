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
  walk(json as Record<string, unknown>, ROOT, changes);
  return changes;
}

/** A field of the envelope with its own fields: what a walk looks up, key by key (no path built unless a change). */
interface Node {
  key: string;
  path: string;
  field: Field;
  children: Map<string, Node>;
  required: Node[];
}

function tree(): Node {
  const root: Node = { key: '', path: '', field: OBJECT, children: new Map(), required: [] };
  const nodes = new Map<string, Node>([['', root]]);
  for (const [path, field] of Object.entries(ENVELOPE)) {
    const dot = path.lastIndexOf('.');
    const node: Node = { key: path.slice(dot + 1), path, field, children: new Map(), required: [] };
    nodes.set(path, node);
    const parent = nodes.get(dot < 0 ? '' : path.slice(0, dot))!;
    parent.children.set(node.key, node);
    if (field.required) parent.required.push(node);
  }
  return root;
}

const ROOT = tree();

function walk(object: Record<string, unknown>, node: Node, changes: DeliveryChange[]): void {
  for (const key in object) {
    const value = object[key];
    const child = node.children.get(key);
    if (!child) {
      const path = node.path ? `${node.path}.${key}` : key;
      changes.push({ path, kind: 'new', seen: jsonTypeOf(value), expected: '', coerced: false, example: exampleOf(path, value) });
      continue; // a new object is one new field
    }
    const seen = jsonTypeOf(value);
    if (seen === 'object' && child.field.type === 'object') walk(value as Record<string, unknown>, child, changes);
    else if (seen !== child.field.type) {
      const taken = coerce(value, child.field);
      if (taken !== undefined) object[key] = taken;
      const { path } = child;
      changes.push({
        path,
        kind: 'other type',
        seen,
        expected: expectedText(path),
        coerced: taken !== undefined,
        example: exampleOf(path, value),
      });
    }
  }
  for (const child of node.required) {
    if (!(child.key in object)) {
      changes.push({ path: child.path, kind: 'missing', seen: '', expected: expectedText(child.path), coerced: false, example: null });
    }
  }
}

/** The largest time a Date holds (ECMA-262: 10^8 days after the epoch). */
const MAX_DATE_MS = 8.64e15;

/** The value in the field's type when nothing is lost (a time as Unix seconds, a boolean as text), else undefined. */
function coerce(value: unknown, field: Field): unknown {
  if (field.form === 'RFC 3339 time' && typeof value === 'number' && Number.isFinite(value) && value >= 0) {
    // Whole milliseconds only (a finer fraction would not come back the same), within a Date's range.
    const ms = value * 1000;
    return Number.isInteger(ms) && ms <= MAX_DATE_MS ? new Date(ms).toISOString() : undefined;
  }
  if (field.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return undefined;
}
