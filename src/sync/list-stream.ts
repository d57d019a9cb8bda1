// One pass over a list stream: page by page, each page and the stream's checkpoint committed in one
// transaction, so an interrupted run resumes at the next page. The variants of a list (the asset
// classes) are paged at the same time, each with its own place in the one checkpoint.
import type { ListStream, Query } from '../catalog/types.js';
import { errorAction } from '../errors.js';
import type { Row } from '../store/types.js';
import type { StreamContext } from './context.js';
import { futureDated, windowStart } from '../requests/date-window.js';
import { servicePresent } from '../requests/time-bound.js';
import { ListCheckpoints, savedCheckpoint } from './list-checkpoint.js';
import { rowsExpected } from '../requests/list-size.js';
import type { Variant } from '../requests/list-requests.js';
import { syncVariant } from './variant-pass.js';
import type { PassShape } from './shape/pass-shape.js';
import { watchShape } from './shape/watch-shape.js';

const SINGLE: readonly Variant[] = [{ name: '', query: {} as Query, scope: {} as Row }];

export async function syncList(ctx: StreamContext, stream: ListStream): Promise<void> {
  await watchShape(ctx, stream, (shape) => listPass(ctx, stream, shape));
}

/** The pass; true when it read the whole list (every variant from page 1 to its end, no date window). */
async function listPass(ctx: StreamContext, stream: ListStream, shape: PassShape): Promise<boolean> {
  const { store } = ctx;
  const variants = stream.variants ?? SINGLE;
  const saved = await savedCheckpoint(ctx, stream);
  const start = saved ? saved.windowStart : await windowStart(store, ctx.settings, stream, servicePresent(ctx.client));
  if (saved) ctx.logger.info({ next: saved.next }, 'resuming from checkpoint');
  const checkpoints = new ListCheckpoints(saved?.pass ?? ctx.now(), start, variants, saved);
  // Rows each variant held last time (unknown under a date window): the pager's horizon and the bar's total.
  const expectedRows = await Promise.all(variants.map((variant) => (start === null ? rowsExpected(store, stream, variant) : 0)));
  // The page limit stops a list that never ends. A pass resumed before any pass of the list ever
  // completed knows only the pages it read so far, not the list's length: its limit is the ceiling.
  const lengthKnown = !saved || (await store.getState(stream.name))?.lastSuccessAt != null;
  const expected = expectedRows.reduce((a, b) => a + b, 0);
  if (expected > 0) ctx.progress.start(stream.name, expected);

  // One variant failing stops the others at their next page, before the stream reports the failure.
  const failed = new AbortController();
  const variantCtx: StreamContext = { ...ctx, signal: AbortSignal.any([ctx.signal, failed.signal]), requestSignal: ctx.signal };
  // A first pass into an empty table builds some of its indexes at its end (StoreAdapter.firstLoad).
  const load = () =>
    Promise.allSettled(
      variants.map(async (variant, v) => {
        const progress = checkpoints.places.get(variant.name)!;
        if (progress.nextToRead() === null) return;
        const checkpointAfter = (pages: readonly number[]) => checkpoints.after(variant.name, pages);
        const rows = expectedRows[v]!;
        const readAhead = start === null && rows === 0; // nothing known of its length: hide the round trips
        const run = { progress, start, expectedRows: rows, readAhead, guardRows: lengthKnown ? rows : 0, checkpointAfter, shape };
        await syncVariant(variantCtx, stream, variant, run).catch((error: unknown) => {
          failed.abort();
          throw error;
        });
      }),
    );
  const outcomes = await (store.adapter.firstLoad?.(stream.table, load) ?? load());
  // The variant that failed, not a sibling that stopped because of it.
  const rejected = outcomes.filter((o) => o.status === 'rejected');
  const failure = rejected.find((o) => errorAction(o.reason) !== 'stop') ?? rejected[0];
  if (failure) throw failure.reason;
  if (!checkpoints.complete()) {
    ctx.stats.outcome = 'stopped';
    return false;
  }
  // Variants that finished at the same moment may each have saved the other's older place.
  if (!checkpoints.cleared) await store.transaction((tx) => tx.saveCheckpoint(stream.name, null));
  const future = await futureDated(store, stream, servicePresent(ctx.client));
  if (future) {
    ctx.stats.notice ??= `${future.count} record(s) dated after today (up to ${future.latest}) are kept but do not move the date window`;
    ctx.logger.warn({ records: future.count, latest: future.latest }, 'records dated in the future: kept, window unmoved');
  }
  return start === null && !saved;
}
