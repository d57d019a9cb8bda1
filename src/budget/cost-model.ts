// What one run of a stream costs in requests, and in which quota: the stream's runner plans the run
// (src/sync/stream-runner.ts: a list's pages, a fan-out's parents, the events' window, re-reads and
// details), from the mirror's own sizes or from the real service's published sizes (the catalog's) for
// what the mirror does not hold yet (then marked as an estimate). `intervalDays` is the time since the
// stream's previous run: the growth a date window reads on top of its lookback.
import { apiFamilyOf } from '../client/index.js';
import { keyless } from '../catalog/index.js';
import type { StreamDef } from '../catalog/types.js';
import type { SyncSettings } from '../requests/run-settings.js';
import type { Store } from '../store/types.js';
import { plannerOf } from '../sync/index.js';
import { quotaFamilyOf, type QuotaFamily } from './quotas.js';

export interface StreamCost {
  stream: string;
  family: QuotaFamily;
  requests: number;
  /** Some size came from the published real sizes, not from the mirror. */
  estimated: boolean;
  /** A fan-out's pages per parent are unknown: at least this many. */
  atLeast: boolean;
  /** Of `requests`, those a first read may make past a list's end while reading ahead (src/paging/pager.ts). */
  readAhead?: number;
}

/** The quota a stream's requests count in: its path's API family (a fan-out's template names its family as each parent's path does). */
export function familyOf(stream: StreamDef): QuotaFamily {
  return quotaFamilyOf(apiFamilyOf(stream.path.split('?')[0], keyless(stream)));
}

export async function runCost(store: Store, settings: SyncSettings, stream: StreamDef, intervalDays = 0): Promise<StreamCost> {
  const base = { stream: stream.name, family: familyOf(stream), estimated: false, atLeast: false };
  return { ...base, ...(await plannerOf(stream).plan(store, settings, intervalDays)) };
}
