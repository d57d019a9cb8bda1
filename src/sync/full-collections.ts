// A parsed page leaves garbage behind: its body (and the socket chunks it was read from) as array
// buffers outside V8's heap, which only a full collection frees, and its records once written. V8
// starts a full collection on its own only after tens of MB of buffers have died, so a first sync's
// peak memory was largely pages already parsed (at scale 30: 33-76 MB of array buffers and a young
// generation full of garbage at the peak). Collecting after every 12 MB of pages parsed, two of the
// largest pages, took 15-60 MB off that peak (185-191 MB against 205-254), for three or four collections
// of 20-30 ms in a first sync at scale 10 (bench/RESULTS.md). Pages skipped unparsed (a no-op) do not
// count: they leave only their bytes, and a no-op stays far below that peak.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export class FullCollections {
  private sinceCollect = 0;
  private pending = false;

  constructor(
    private readonly everyBytes: number,
    private readonly collect: () => void,
  ) {}

  /**
   * Counts a page parsed; once `everyBytes` have been parsed since the last collection, collects on the
   * next turn of the event loop, when the page's body and text are garbage too.
   */
  parsed(bytes: number): void {
    this.sinceCollect += bytes;
    if (this.sinceCollect < this.everyBytes || this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      this.sinceCollect = 0;
      this.collect();
    });
  }
}

/**
 * V8's full collection. `--expose-gc` given at run time exposes `gc` only in contexts made after it is
 * set, so it is taken from a new one (the process is not restarted with a flag for it). A runtime that
 * will not expose it gets none: memory, not correctness, depends on it.
 */
export function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof gc === 'function' ? (gc as () => void) : () => {};
}

let gc: (() => void) | undefined;

/** The process's count: every list page parsed. */
export const afterParsing = new FullCollections(12 * 1024 * 1024, () => {
  gc ??= fullCollection();
  gc();
});
