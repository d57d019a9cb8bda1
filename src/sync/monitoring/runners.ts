// The hand-written runners, by the name a catalog entry gives (CustomStream.runner). Monitoring events
// normalize each record into five tables, rewrite an event's children only when it changed and drain a
// bounded backlog of one-request-each details; views are configured ids whose matches are inserted,
// newest first down to a bound, beside the webhook receiver's. Neither is a list the generic runner reads.
import type { CustomStream } from '../../catalog/types.js';
import type { StreamContext } from '../context.js';
import { syncEvents } from './events-sync.js';
import { syncViews, type ViewMatchCounts } from './views-sync.js';

/** What a runner hands back beyond its stream's stats: a views pass's account of every record it read. */
export interface RunnerOutput {
  viewMatches?: ViewMatchCounts;
}

export const customRunners: Readonly<Record<CustomStream['runner'], (ctx: StreamContext, stream: CustomStream) => Promise<RunnerOutput>>> =
  {
    'monitoring-events': async (ctx, stream) => {
      await syncEvents(ctx, stream.paginator);
      return {};
    },
    'monitoring-views': async (ctx, stream) => ({ viewMatches: await syncViews(ctx, stream.paginator, stream.views ?? {}) }),
  };
