// The hand-written runners, registered under the names a catalog entry gives (CustomStream.runner, from
// src/catalog/runner-names.ts): each runs its stream and plans a run of it. Monitoring events normalize
// each record into five tables, rewrite an event's children only when it changed and drain a bounded
// backlog of one-request-each details; views are configured ids whose matches are inserted, newest first
// down to a bound, beside the webhook receiver's. Neither is a list the generic runner reads.
import { RUNNERS, type RunnerName } from '../../catalog/runner-names.js';
import type { CustomStream } from '../../catalog/types.js';
import { buildUrl } from '../../client/index.js';
import type { StreamRunner } from '../stream-runner.js';
import { eventsPlan } from './events-plan.js';
import { syncEvents } from './events-sync.js';
import { syncViews } from './views-sync.js';

const eventsRunner: StreamRunner<CustomStream> = {
  async run(ctx, stream) {
    await syncEvents(ctx, stream.paginator);
    return {};
  },
  plan: eventsPlan,
  reading: (_stream, _settings, synced) => (synced ? 'recent window, re-reads, new details' : 'first read: every event'),
  firstRequest: async (_store, _settings, stream, baseUrl) => `GET ${buildUrl(baseUrl, stream.path)}`,
};

const viewsRunner: StreamRunner<CustomStream> = {
  run: async (ctx, stream) => ({ viewMatches: await syncViews(ctx, stream.paginator, stream.views ?? {}) }),
  // Each view, then its matches since the last pass: a page, more on its daily full pass.
  plan: async (_store, settings) => ({ requests: settings.monitoring.views.length * 2 }),
  reading: () => "each view's matches since its last pass",
  // Views are configured, not listed: nothing is requested (or said) when there are none.
  firstRequest: async (_store, settings, stream, baseUrl) =>
    settings.monitoring.views.length === 0 ? null : `GET ${buildUrl(baseUrl, stream.path)}`,
};

export const customRunners: Readonly<Record<RunnerName, StreamRunner<CustomStream>>> = {
  [RUNNERS.events]: eventsRunner,
  [RUNNERS.views]: viewsRunner,
};
