// What a mirror of a /v1 list should hold: the sandbox's records as the stream requests them, by key.
import type { Sandbox } from '../../sandbox/index.js';
import type { ListStream } from '../../src/catalog/types.js';
import { keyString } from '../../src/store/index.js';
import { toRow } from '../../src/sync/row-mapping.js';

/** The sandbox's records as the stream requests them (fields it does not expand are absent), by row key. */
export function expectedRecords(sandbox: Sandbox, stream: ListStream): Map<string, unknown> {
  const expand = String(stream.query?.expand ?? '')
    .split(',')
    .filter(Boolean);
  const unexpanded: Record<string, string[]> = { projects: ['asset', 'child_projects'].filter((f) => !expand.includes(f)) };
  // The key's columns alone: mapping every column of 11,000 records (test/sync/workers) cost half a second.
  const keyColumns = Object.fromEntries(stream.key.map((k) => [k, stream.columns[k]!]));
  const map = new Map<string, unknown>();
  for (const record of sandbox.records(stream.name) as Record<string, unknown>[]) {
    // The glossary's default (`status=true`) serves active entries only, and so does the mirror.
    if (stream.name === 'glossary' && record.status === false) continue;
    const copy = { ...record };
    for (const field of unexpanded[stream.name] ?? []) delete copy[field];
    const row = toRow(copy, keyColumns);
    map.set(keyString(stream.key.map((k) => row[k])), copy);
  }
  return map;
}
