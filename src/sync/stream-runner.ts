// What runs a stream, as one object: it reads the stream (run), says what a run of it would request
// (plan: what the budget prices and `sync --plan` prints), how a plain run reads it (reading) and the
// request it begins with (firstRequest: what `sync --plan` shows). Lists
// and fan-outs have one each (runners.ts); a custom catalog entry names its hand-written one
// (monitoring/runners.ts). The engine runs and the budget prices every stream through `runnerOf`, so no
// room switches on a stream's name.
import type { StreamDef } from '../catalog/types.js';
import type { Store } from '../store/types.js';
import type { StreamContext, SyncSettings } from './context.js';
import type { ViewMatchCounts } from './monitoring/views-sync.js';

/** What a runner hands back beyond its stream's stats: a views pass's account of every record it read. */
export interface RunnerOutput {
  viewMatches?: ViewMatchCounts;
}

/** What one run of a stream requests, as its runner plans it. */
export interface StreamPlan {
  requests: number;
  /** Some size came from the real service's published sizes (the catalog's), not from the mirror. */
  estimated?: boolean;
  /** A fan-out's pages per parent are unknown: at least this many. */
  atLeast?: boolean;
  /** Of `requests`, those a first read may make past a list's end while reading ahead (src/paging/pager.ts). */
  readAhead?: number;
}

export interface StreamRunner<S extends StreamDef> {
  run(ctx: StreamContext, stream: S): Promise<RunnerOutput>;
  /**
   * What one run requests: the next run (intervalDays 0), from the mirror's state and checkpoints, or a
   * scheduled run's steady cost every intervalDays once the mirror has caught up.
   */
  plan(store: Store, settings: SyncSettings, stream: S, intervalDays: number): Promise<StreamPlan>;
  /** How an incremental run reads it, in a few words, after a first sync or before one. */
  reading(stream: S, settings: SyncSettings, synced: boolean): string;
  /**
   * The next run's first request as it would be sent (no key), with a word on what follows it, for
   * `sync --plan`; null when the run would request nothing (no monitoring view configured).
   */
  firstRequest(store: Store, settings: SyncSettings, stream: S, baseUrl: string): Promise<string | null>;
}

/** What a runner says of its stream without running it: what the budget and `sync --plan` ask. */
export interface StreamPlanner {
  plan(store: Store, settings: SyncSettings, intervalDays?: number): Promise<StreamPlan>;
  reading(settings: SyncSettings, synced: boolean): string;
  firstRequest(store: Store, settings: SyncSettings, baseUrl: string): Promise<string | null>;
}

/** A runner with its stream: what the engine holds. */
export interface BoundRunner extends StreamPlanner {
  run(ctx: StreamContext): Promise<RunnerOutput>;
}

export function bindRunner<S extends StreamDef>(runner: StreamRunner<S>, stream: S): BoundRunner {
  return {
    run: (ctx) => runner.run(ctx, stream),
    plan: (store, settings, intervalDays = 0) => runner.plan(store, settings, stream, intervalDays),
    reading: (settings, synced) => runner.reading(stream, settings, synced),
    firstRequest: (store, settings, baseUrl) => runner.firstRequest(store, settings, stream, baseUrl),
  };
}
