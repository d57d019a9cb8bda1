// Where a field's values sit in a record: a dotted path walks into objects, and a part ending in `[]` into
// every item of a list (`assets[].id`: the id of each asset an event lists). A slot is the object or list
// that holds a value and the value's key there, so a coercion puts the value back where it was.

export type Slot = readonly [holder: Record<string, unknown> | unknown[], key: string | number];

/** A path's parts as the walk reads them (`assets[].id` → `assets[]`, `id`). */
export function pathParts(path: string): string[] {
  return path.split('.');
}

/** Whether a path goes into the items of a list. */
export function inList(parts: readonly string[]): boolean {
  return parts.some((p) => p.endsWith('[]'));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Every slot of the path in the record. A holder on the way that is not an object (or not a list, for a
 * part in `[]`) has no slot below it: that is its own field's change, told once, there.
 */
export function slotsOf(record: Record<string, unknown>, parts: readonly string[]): Slot[] {
  const slots: Slot[] = [];
  let holders: Record<string, unknown>[] = [record];
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const list = part.endsWith('[]');
    const name = list ? part.slice(0, -2) : part;
    const next: Record<string, unknown>[] = [];
    for (const holder of holders) {
      const value = holder[name];
      if (!list) {
        if (last) slots.push([holder, name]);
        else if (isObject(value)) next.push(value);
      } else if (Array.isArray(value)) {
        value.forEach((item, k) => {
          if (last) slots.push([value, k]);
          else if (isObject(item)) next.push(item);
        });
      }
    }
    holders = next;
  });
  return slots;
}
