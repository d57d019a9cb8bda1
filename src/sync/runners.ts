// Every stream's runner, found by its catalog entry: the list runner, the fan-out runner, or the
// hand-written runner a custom entry names (monitoring/runners.ts). The one place a stream meets its runner.
import type { FanoutStream, ListStream, StreamDef } from '../catalog/types.js';
import { buildUrl } from '../client/index.js';
import { fanoutPath, fanoutQuery, selectionFor, selectParents } from '../requests/fanout-parents.js';
import { syncFanout } from './fanout-stream.js';
import { listFirstRequest, listPlan, listReading } from './list-plan.js';
import { syncList } from './list-stream.js';
import { customRunners } from './monitoring/runners.js';
import { type BoundRunner, bindRunner, type StreamPlanner, type StreamRunner } from './stream-runner.js';

/** A list, page by page (list-stream.ts), priced by its pages (list-plan.ts). */
const listRunner: StreamRunner<ListStream> = {
  async run(ctx, stream) {
    await syncList(ctx, stream);
    return {};
  },
  plan: listPlan,
  reading: listReading,
  firstRequest: listFirstRequest,
};

/** One request per selected parent (more for a paged parent's rows, so at least that many). */
const fanoutRunner: StreamRunner<FanoutStream> = {
  async run(ctx, stream) {
    await syncFanout(ctx, stream);
    return {};
  },
  async plan(store, settings, stream) {
    const parents = await selectParents(store, stream, selectionFor(settings, stream));
    return { requests: parents.length, atLeast: stream.paginator !== undefined };
  },
  reading: () => 'one request per parent',
  // The first parent's request: the fan-out's path and query, for each parent mirrored.
  async firstRequest(store, settings, stream, baseUrl) {
    const [example] = await selectParents(store, stream, selectionFor(settings, stream));
    return example
      ? `GET ${buildUrl(baseUrl, fanoutPath(stream, example), fanoutQuery(stream, settings.fanout))} (one per parent)`
      : '(no parents mirrored yet: sync their list first)';
  },
};

/** The runner of a stream, with the stream: what runs it, plans it and says how it is read. */
export function runnerOf(stream: StreamDef): BoundRunner {
  switch (stream.kind) {
    case 'list':
      return bindRunner(listRunner, stream);
    case 'fanout':
      return bindRunner(fanoutRunner, stream);
    case 'custom':
      return bindRunner(customRunners[stream.runner], stream);
  }
}

/** The runner's plan of a stream, without the means to run it: what the rooms above sync may ask. */
export function plannerOf(stream: StreamDef): StreamPlanner {
  const { plan, reading, firstRequest } = runnerOf(stream);
  return { plan, reading, firstRequest };
}
