// A list's checkpoint: where each of its variants stands (the next page to read; null once complete),
// saved in the transaction of every page it writes. Variants page at the same time, so the checkpoint a
// page saves is built as that page commits, from every variant's place at that moment.
import type { ListStream } from '../catalog/types.js';
import type { Variant } from '../requests/list-requests.js';
import type { StreamContext } from './context.js';
import { PageProgress } from './page-progress.js';

export interface ListCheckpoint {
  pass: string;
  windowStart: string | null;
  /** Per variant, the next page to read; null once the variant is complete. */
  next: Record<string, number | null>;
}

/** The interrupted pass to resume (none on a full run). */
export async function savedCheckpoint(ctx: StreamContext, stream: ListStream): Promise<ListCheckpoint | null> {
  if (ctx.settings.mode === 'full') return null;
  return ((await ctx.store.getState(stream.name))?.checkpoint ?? null) as ListCheckpoint | null;
}

export class ListCheckpoints {
  /** Where each variant stands: read from the saved checkpoint, advanced as its pages commit. */
  readonly places: ReadonlyMap<string, PageProgress>;
  /**
   * Whether the last checkpoint built was null. It is built only once every other page of every variant
   * has committed, so no later commit can overwrite it; otherwise the end of the run saves null itself.
   */
  cleared = false;

  constructor(
    private readonly pass: string,
    private readonly windowStart: string | null,
    variants: readonly Variant[],
    saved: ListCheckpoint | null,
  ) {
    this.places = new Map(
      variants.map((v) => {
        const next = saved?.next[v.name];
        return [v.name, next === null ? PageProgress.complete() : new PageProgress(next ?? 1)];
      }),
    );
  }

  /** The stream's checkpoint as it will stand once `pages` of `variant` commit (built last, so it holds every other page done). */
  after(variant: string, pages: readonly number[]): ListCheckpoint | null {
    const next = Object.fromEntries(
      [...this.places].map(([name, p]) => [name, name === variant ? p.nextToRead(...pages) : p.nextToRead()]),
    );
    this.cleared = Object.values(next).every((p) => p === null);
    return this.cleared ? null : { pass: this.pass, windowStart: this.windowStart, next };
  }

  /** Every variant read to its end. */
  complete(): boolean {
    return [...this.places.values()].every((p) => p.nextToRead() === null);
  }
}
