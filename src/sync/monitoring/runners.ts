// The hand-written runners, by the name a catalog entry gives (CustomStream.runner). Monitoring events
// normalize each record into five tables, rewrite an event's children only when it changed and drain a
// bounded backlog of one-request-each details; views are configured ids whose matches are inserted,
// newest first down to a bound, beside the webhook receiver's. Neither is a list the generic runner reads.
import type { CustomStream } from '../../catalog/types.js';
import type { StreamContext } from '../context.js';
import { syncEvents } from './events-sync.js';
import { syncViews } from './views-sync.js';

export const customRunners: Readonly<Record<CustomStream['runner'], (ctx: StreamContext, stream: CustomStream) => Promise<void>>> = {
  'monitoring-events': (ctx) => syncEvents(ctx),
  'monitoring-views': (ctx, stream) => syncViews(ctx, stream.views ?? {}),
};
