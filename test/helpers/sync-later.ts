// A run in the test's own process as if started some hours later: the in-process twin of a spawned
// `ds-mirror sync` with the child's clock moved (cli-user.ts, shifted-clock.mjs), for the passes of a
// scenario that only move the mirror on (their outcome read from the run's result and the mirror), so a
// test spends a CLI process only on the runs whose output it reads. The run's clock is injected
// (rows' times, held deletions' waits), so a pass here and a spawned one later agree on what 6 h is.
import { resolveStreams } from '../../src/catalog/index.js';
import type { Store, StreamRunStats } from '../../src/store/index.js';
import type { SyncSettings } from '../../src/sync/context.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, settings, silent } from './mirror.js';

const HOUR = 3_600_000;

/** One complete pass of `streams`, `hoursLater` hours from now; each stream's result, in order. */
export async function fullPassLater(
  store: Store,
  sandbox: { url: string; apiKey: string },
  streams: readonly string[],
  hoursLater: number,
  extra: Partial<SyncSettings> = {},
): Promise<StreamRunStats[]> {
  const client = fastClient(sandbox);
  const at = Date.now() + hoursLater * HOUR;
  try {
    const run = await runSync({
      client,
      store,
      logger: silent,
      settings: settings({ mode: 'full', ...extra }),
      streams: resolveStreams(streams),
      clock: () => new Date(at),
    });
    return run.streams;
  } finally {
    await client.close();
  }
}
