// `sync --plan`: the requests a run would make, without making any. List sizes come from what the
// mirror already holds (a list ends at its first short page, so a first sync can only say "at least 1").
import { buildUrl } from '../client/index.js';
import type { Query, StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { SyncSettings } from './context.js';
import { windowStart } from './date-window.js';
import { selectParents, selectionFor } from './fanout-stream.js';
import { rowsLastSeen } from './list-page.js';

export interface PlannedRequest {
  stream: string;
  request: string;
  /** How many requests of this form; `atLeast` when the mirror cannot tell. */
  count: number;
  atLeast: boolean;
}

export async function planRun(store: Store, settings: SyncSettings, streams: readonly StreamDef[], baseUrl: string): Promise<PlannedRequest[]> {
  const plan: PlannedRequest[] = [];
  for (const stream of streams) {
    if (stream.kind === 'list') {
      const start = await windowStart(store, settings, stream);
      for (const variant of stream.variants ?? [{ name: '', query: {}, scope: {} }]) {
        const query: Query = { ...stream.query, ...variant.query, page: 1, limit: stream.pageSize };
        if (start !== null && stream.window) query[stream.window.startParam] = start;
        const rows = start === null ? await rowsLastSeen(store, stream.name, variant.name) : 0;
        plan.push({
          stream: stream.name,
          request: `GET ${buildUrl(baseUrl, stream.path, query)}`,
          count: Math.floor(rows / stream.pageSize) + 1,
          atLeast: rows === 0,
        });
      }
    } else if (stream.kind === 'custom') {
      plan.push({ stream: stream.name, request: `GET ${buildUrl(baseUrl, stream.path)}`, count: 1, atLeast: true });
    } else {
      const parents = await selectParents(store, stream, selectionFor(settings, stream));
      const example = parents[0];
      plan.push({
        stream: stream.name,
        request: example ? `GET ${buildUrl(baseUrl, stream.path(example), stream.query?.(example, settings.fanout))} (one per parent)` : '(no parents mirrored yet: sync their list first)',
        count: parents.length,
        atLeast: stream.pageSize !== undefined,
      });
    }
  }
  return plan;
}
