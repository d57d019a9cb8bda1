// A small sandbox mirrored into a store the way an analyst's would be: every stream, some monitoring
// views (whose matches fill alert_history), then the sandbox's clock advanced and an incremental sync,
// so views, history and alerts all have rows. The same sandbox state can be mirrored into both stores.
import type { Store } from '../../src/store/index.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { monitoringParams } from '../../src/catalog/query-params.js';
import { syncOnce } from '../helpers/mirror.js';

export const ALL_STREAMS = ['all'];

/** Started as a user starts it, without a start: its clock is now (the worked examples ask about now). */
export async function analystSandbox(): Promise<Sandbox> {
  return startSandbox({ scale: 0.15, seed: 11 }); // unpinned: the worked examples ask about now
}

export function viewIds(sb: Sandbox, n = 3): string[] {
  return sb.monitoring
    .views()
    .slice(0, n)
    .map((v) => v.id);
}

/** One sync of everything, with the first views configured. */
export async function syncAll(store: Store, sb: Sandbox, views = viewIds(sb)): Promise<void> {
  const result = await syncOnce(store, sb, ALL_STREAMS, {
    settings: { monitoring: { views, events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams() } },
  });
  if (result.outcome !== 'success')
    throw new Error(`fixture sync: ${result.outcome} ${JSON.stringify(result.streams.filter((s) => s.error))}`);
}

/** Values as both stores can be compared: booleans as 0/1, JSON parsed, Dates as ISO text. */
export function neutral(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && (value.startsWith('[') || value.startsWith('{'))) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}
