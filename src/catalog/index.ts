// The catalog: every stream ds-mirror knows, by name. A new endpoint is one entry here plus one migration
// (test/sync/catalog-schema.test.ts checks that they agree).
import { ConfigError } from '../errors.js';
import type { ListStream, StreamDef } from './types.js';
import { assetsTop, v1Lists } from './v1.js';
import { v1Fanouts } from './v1-fanouts.js';
import { monitoringStreams } from './monitoring.js';

export type {
  ListStream,
  FanoutStream,
  CustomStream,
  FanoutParent,
  FanoutSettings,
  StreamDef,
  Query,
  PaginatorSpec,
  MappedTable,
  ChildTable,
  PublishedSize,
} from './types.js';
export { RUNNERS, type RunnerName } from './runner-names.js';

const registered: readonly StreamDef[] = [...v1Lists, assetsTop, ...v1Fanouts, ...monitoringStreams];

/** Named groups a user can give instead of stream names. */
const groups: Record<string, (s: StreamDef) => boolean> = {
  all: (s) => !s.optIn,
  v1: (s) => !s.optIn && 'path' in s && typeof s.path === 'string' && s.path.startsWith('/v1/'),
  fanouts: (s) => s.kind === 'fanout',
  monitoring: (s) => monitoringStreams.includes(s as never),
};

export function allStreams(): readonly StreamDef[] {
  return registered;
}

/** Records the real service publishes for a stream (its variants summed), or undefined when it publishes none. */
export function publishedRows(stream: StreamDef): number | undefined {
  const rows = stream.kind === 'fanout' ? undefined : stream.published?.rows;
  return typeof rows === 'object' ? Object.values(rows).reduce((a, b) => a + b, 0) : rows;
}

/** Tables whose versions view lifts every column from raw: their history keeps no typed_row (schema/history/triggers.ts). */
export function liftedFromRaw(streams: readonly StreamDef[] = registered): ReadonlySet<string> {
  return new Set(streams.filter((s) => s.kind !== 'fanout' && s.versionsFromRaw).map((s) => s.table));
}

/** Whether a stream's live rows are those not soft-deleted: a fan-out of rows per parent replaces them and deletes none. */
export function softDeletes(stream: StreamDef): boolean {
  return stream.kind !== 'fanout' || stream.shape === 'record';
}

/** A table the streams fill, once however many streams fill it, and whether its live rows are those not soft-deleted. */
export interface StreamTable {
  table: string;
  softDeleted: boolean;
}

/** The tables `streams` fill, in catalog order (v_streams counts their live rows, as `ds-mirror status` does). */
export function streamTables(streams: readonly StreamDef[] = registered): readonly StreamTable[] {
  const tables = new Map<string, boolean>();
  for (const s of streams) if (!tables.has(s.table)) tables.set(s.table, softDeletes(s));
  return [...tables].map(([table, softDeleted]) => ({ table, softDeleted }));
}

/** The partial tier of a list (the top of a ranking over the same table, `assets-top` of `assets`), if the catalog has one. */
export function topTierOf(stream: StreamDef): ListStream | undefined {
  if (stream.kind !== 'list' || stream.maxRecords) return undefined;
  return registered.find((s): s is ListStream => s.kind === 'list' && s.maxRecords !== undefined && s.table === stream.table);
}

/** Whether a stream's path is served without a key (a list marked `keyless`): its requests count in no key's quota. */
export function keyless(stream: StreamDef): boolean {
  return stream.kind === 'list' && stream.keyless === true;
}

/** A stream as the store's catalog_streams describes it (v_streams reads it). */
export interface CatalogRow {
  stream: string;
  table_name: string;
  kind: string;
  opt_in: boolean;
  description: string;
}

export function catalogRow(s: StreamDef): CatalogRow {
  return { stream: s.name, table_name: s.table, kind: s.kind, opt_in: s.optIn === true, description: s.description };
}

/** Streams named on the command line (names or groups), in catalog order; default: every non-opt-in stream. */
export function resolveStreams(names: readonly string[]): StreamDef[] {
  if (names.length === 0) return registered.filter(groups.all);
  const chosen = new Set<StreamDef>();
  for (const name of names) {
    const group = groups[name];
    const matches = group ? registered.filter(group) : registered.filter((s) => s.name === name);
    if (matches.length === 0) {
      const known = [...Object.keys(groups), ...registered.map((s) => s.name)].join(', ');
      throw new ConfigError(`unknown stream "${name}"; known streams and groups: ${known}`);
    }
    for (const m of matches) chosen.add(m);
  }
  return registered.filter((s) => chosen.has(s));
}
