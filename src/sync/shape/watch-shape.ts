// One pass of a stream under the shape's watch: its observer made from the expected shape, handed to the
// pass, and at its end (completed, stopped or failed) the changes recorded and said in the run's notice.
import { DriftError } from '../../errors.js';
import type { StreamContext } from '../context.js';
import { DEFAULT_CONFIRM_AFTER_HOURS } from '../deletion-gate.js';
import type { ShapeSource } from './expected-shape.js';
import type { PassShape } from './pass-shape.js';
import { changesNotice, contractOf, recordShape, startShape } from './shape-record.js';
import type { ShapeChange } from './shape-changes.js';

/**
 * `complete`: the pass read the whole list (no date window, not stopped), so a field gone can be judged.
 * `part`: records of another kind the stream fetches (its development details), watched under
 * `<stream>/<part>` with the stream's contract.
 */
export async function watchShape(
  ctx: StreamContext,
  source: ShapeSource,
  pass: (shape: PassShape) => Promise<boolean>,
  part?: string,
): Promise<void> {
  const stream = part ? `${ctx.stats.stream}/${part}` : ctx.stats.stream;
  const { settings } = ctx;
  const gone = {
    confirmed: settings.confirmDeletions === true,
    afterHours: settings.confirmDeletionsAfterHours ?? DEFAULT_CONFIRM_AFTER_HOURS,
    now: ctx.now(),
  };
  const shape = await startShape(ctx.store, stream, source, contractOf(settings, ctx.stats.stream), gone);
  let complete = false;
  let changes: ShapeChange[] = [];
  try {
    complete = await pass(shape);
  } finally {
    changes = await recordShape(ctx.store, shape, complete && shape.unparsed === 0, ctx.now()).catch((err: unknown) => {
      ctx.logger.warn({ err: String(err) }, 'the changes of the service’s shape could not be recorded');
      return [];
    });
    const notice = changesNotice(changes, part);
    if (notice) {
      ctx.logger.warn({ changes: changes.length }, notice);
      ctx.stats.notice = ctx.stats.notice ? `${ctx.stats.notice}; ${notice}` : notice;
    }
  }
  if (shape.contract === 'fail' && changes.length > 0) {
    const first = changes[0]!;
    throw new DriftError(
      `${stream}: ${first.path} ${first.kind === 'new' ? 'is a new field' : first.kind === 'missing' ? 'is missing' : `came as ${first.seen}`}, and the stream's contract is fail`,
    );
  }
}
