// The tree of counters a pass's observer fills: one node per field path (a list's items under the list's `[]`
// node), each counting the records per JSON type its values came in, with one example of each. The walk is
// the observer's whole cost on a record, so it allocates nothing once a stream's fields are known: each node
// remembers its children in the order the last record gave its keys (records of one API come in one order,
// so a key costs a comparison of two interned strings, the map only when the order changes), and a typed
// field's node knows the JSON type it must come in, so the walk that counts a record's fields also tells
// whether any of them came in another (pass-shape.ts then checks only such a record, field by field).
import { ARRAY, exampleOf, JSON_TYPES, NULL, OBJECT, typeIndex } from '../../json-types.js';

/** A field as the pass saw it: records per JSON type, one example of each. */
export interface FieldNode {
  counts: number[];
  examples: (string | undefined)[];
  children: Map<string, FieldNode>;
}

interface WalkNode extends FieldNode {
  readonly key: string;
  /** The children in the order the last object walked here gave its keys. */
  readonly order: WalkNode[];
  /** The types a typed field must not come in, a bit per type index (0: any type, and null always does). */
  other: number;
  /** The node of a list's items (the `[]` child), once a list came here. */
  items: WalkNode | undefined;
}

/** The key of a list's items in the tree of counters (a path reads `assets[].id`). */
export const ITEMS = '[]';

export function newTree(): FieldNode {
  return newNode('');
}

function newNode(name: string): WalkNode {
  // The key as V8 keeps a property's name (interned): a record's key compares with it by identity, not by its
  // characters (a path's parts come from split(), not interned).
  const key = Object.keys({ [name]: 0 })[0]!;
  return { key, counts: [0, 0, 0, 0, 0, 0], examples: [], children: new Map(), order: [], other: 0, items: undefined };
}

/**
 * Marks the node of a typed field (a dotted path, a part in `[]` for a list's items) with the JSON type its
 * values must come in. Its node is made now: it counts nothing until a record carries the field.
 */
export function expectAt(tree: FieldNode, parts: readonly string[], type: (typeof JSON_TYPES)[number]): void {
  let node = tree as WalkNode;
  for (const part of parts) node = part.endsWith(ITEMS) ? itemsOf(childOf(node, part.slice(0, -ITEMS.length))) : childOf(node, part);
  node.other = ((1 << JSON_TYPES.length) - 1) & ~(1 << JSON_TYPES.indexOf(type)) & ~(1 << NULL);
}

/**
 * Counts the record's fields into the tree. Returns whether a typed field came in another JSON type than its
 * node expects (somewhere the per-field check in pass-shape.ts would find it: the walk reaches every value
 * that check reads, along the same objects and list items).
 */
export function observe(record: Record<string, unknown>, tree: FieldNode): boolean {
  return walkObject(record, tree as WalkNode);
}

function walkObject(object: Record<string, unknown>, node: WalkNode): boolean {
  const { order } = node;
  let other = 0;
  let i = 0;
  for (const key in object) {
    let child = order[i];
    if (child === undefined || child.key !== key) child = order[i] = childOf(node, key);
    i++;
    const value = object[key];
    const t = typeIndex(value);
    if (++child.counts[t]! === 1) child.examples[t] = exampleOf(key, value);
    other |= child.other & (1 << t);
    if ((t === OBJECT || t === ARRAY) && below(value, t, child, key)) other = 1;
  }
  return other !== 0;
}

/** An object's fields or a list's items, into the nodes below the value's; whether another type came. */
function below(value: unknown, t: number, node: WalkNode, name: string): boolean {
  if (t === OBJECT) return walkObject(value as Record<string, unknown>, node);
  const list = value as unknown[];
  if (list.length === 0) return false;
  const items = node.items ?? itemsOf(node);
  let other = 0;
  for (let k = 0; k < list.length; k++) {
    const item = list[k];
    const u = typeIndex(item);
    if (++items.counts[u]! === 1) items.examples[u] = exampleOf(name, item);
    other |= items.other & (1 << u);
    if ((u === OBJECT || u === ARRAY) && below(item, u, items, name)) other = 1;
  }
  return other !== 0;
}

function itemsOf(node: WalkNode): WalkNode {
  node.items ??= childOf(node, ITEMS);
  return node.items;
}

function childOf(node: WalkNode, key: string): WalkNode {
  let child = node.children.get(key) as WalkNode | undefined;
  if (!child) {
    child = newNode(key);
    node.children.set(key, child);
  }
  return child;
}

/** Every field the records carried, by dotted path (a node made for a typed field no record carried is left out). */
export function fieldsOf(tree: FieldNode): Map<string, FieldNode> {
  const out = new Map<string, FieldNode>();
  const walk = (node: FieldNode, prefix: string) => {
    for (const [key, child] of node.children) {
      const path = key === ITEMS ? `${prefix}${ITEMS}` : prefix ? `${prefix}.${key}` : key;
      if (child.counts.some((n) => n > 0)) out.set(path, child);
      walk(child, path);
    }
  };
  walk(tree, '');
  return out;
}
