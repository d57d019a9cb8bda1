// The service changing its shape: each change aimed at the lists (and per-item records) under one path
// rewrites every record it serves (a field added, removed or renamed; a number sent as text; a Unix time as ISO text and back; an
// object sent as an array). Fields are dotted paths into the record (`price.usd`); a part ending in `[]` goes
// into every item of a list (`assets[]`: each asset an event lists).

export type ShapeChangeKind = 'add' | 'remove' | 'rename' | 'numberAsString' | 'unixAsIso' | 'isoAsUnix' | 'objectAsArray';

export interface ShapeChange {
  path: string;
  kind: ShapeChangeKind;
  field: string;
  /** `rename`: the field's new name (in the same object). */
  to?: string;
  /** `add`: the value every record gets (default 1). */
  value?: unknown;
}

const KINDS: readonly ShapeChangeKind[] = ['add', 'remove', 'rename', 'numberAsString', 'unixAsIso', 'isoAsUnix', 'objectAsArray'];

export function validateShapeChanges(changes: readonly ShapeChange[]): ShapeChange[] {
  if (!Array.isArray(changes)) throw new Error('chaos shape must be a list of changes');
  for (const c of changes) {
    if (typeof c?.path !== 'string' || !c.path.startsWith('/')) throw new Error('every chaos shape change needs a path starting with /');
    if (!KINDS.includes(c.kind)) throw new Error(`chaos shape change kind must be one of ${KINDS.join(', ')}`);
    if (typeof c.field !== 'string' || c.field === '') throw new Error('every chaos shape change needs a field');
    if (c.kind === 'rename' && (typeof c.to !== 'string' || c.to === '')) throw new Error('chaos shape change rename needs "to"');
  }
  return changes.map((c) => ({ ...c }));
}

/** The path a change names to rewrite the webhook payloads the sandbox sends (fields: `data.latest_development.started_at`). */
export const WEBHOOK_PAYLOADS = '/webhook';

/** A webhook payload as a service that changed its shape sends it (a copy). */
export function changePayload<T>(changes: readonly ShapeChange[], payload: T): unknown {
  const aimed = changes.filter((c) => WEBHOOK_PAYLOADS.startsWith(c.path));
  if (aimed.length === 0) return payload;
  const copy = structuredClone(payload);
  for (const change of aimed) applyChange(copy, change);
  return copy;
}

export function changesShape(changes: readonly ShapeChange[] | undefined, path: string): boolean {
  return (changes ?? []).some((c) => path.startsWith(c.path));
}

/** The records of a list as a service that changed its shape serves them (copies: the world is not touched). */
export function changeShape<T extends { data: unknown[] }>(changes: readonly ShapeChange[], path: string, body: T): T {
  const aimed = changes.filter((c) => path.startsWith(c.path));
  if (aimed.length === 0) return body;
  const data = body.data.map((record) => {
    const copy = structuredClone(record);
    for (const change of aimed) applyChange(copy, change);
    return copy;
  });
  return { ...body, data };
}

/**
 * One record of a per-item endpoint (`/v1/assets/{id}/markets`, bare; `/monitoring/v2/developments/{id}`, in
 * `data`) as the changed service serves it (a copy).
 */
export function changeRecord(changes: readonly ShapeChange[], path: string, body: unknown): unknown {
  const aimed = changes.filter((c) => path.startsWith(c.path));
  if (aimed.length === 0 || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy = structuredClone(body) as { data?: unknown };
  const record = copy.data !== null && typeof copy.data === 'object' && !Array.isArray(copy.data) ? copy.data : copy;
  for (const change of aimed) applyChange(record, change);
  return copy;
}

/** One record (or a webhook payload's object) changed in place; `assets[].id` changes the id of every asset listed. */
export function applyChange(record: unknown, change: ShapeChange): void {
  for (const [parent, name] of slots(record, change.field.split('.'))) changeValue(parent, name, change);
}

type Holder = Record<string | number, unknown>;

/** Where the field's values are: the object (or list) holding each, and its key there. */
function slots(record: unknown, parts: readonly string[]): [Holder, string | number][] {
  let holders: unknown[] = [record];
  const out: [Holder, string | number][] = [];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const list = part.endsWith('[]');
    const name = list ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const holder of holders) {
      if (holder === null || typeof holder !== 'object') continue;
      const value = (holder as Holder)[name];
      if (!list) {
        if (last) out.push([holder as Holder, name]);
        else next.push(value);
      } else if (Array.isArray(value)) {
        value.forEach((item, k) => (last ? out.push([value as unknown as Holder, k]) : next.push(item)));
      }
    }
    holders = next;
  });
  return out;
}

function changeValue(parent: Holder, name: string | number, change: ShapeChange): void {
  const value = parent[name];
  switch (change.kind) {
    case 'add':
      parent[name] = change.value ?? 1;
      return;
    case 'remove':
      delete parent[name];
      return;
    case 'rename':
      if (name in parent) {
        parent[change.to!] = value;
        delete parent[name];
      }
      return;
    case 'numberAsString':
      if (typeof value === 'number') parent[name] = String(value);
      return;
    case 'unixAsIso':
      if (typeof value === 'number') parent[name] = new Date(value * 1000).toISOString().replace('.000Z', 'Z');
      return;
    case 'isoAsUnix':
      if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) parent[name] = Math.floor(Date.parse(value) / 1000);
      return;
    case 'objectAsArray':
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) parent[name] = Object.values(value);
      return;
  }
}
