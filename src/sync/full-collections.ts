// A parsed page leaves garbage behind: its body (and the socket chunks it was read from) as array
// buffers outside V8's heap, which only a full collection frees, and V8 starts one on its own only after
// tens of MB of them have died. A full collection after every 12 MB of pages parsed (two of the largest
// pages) keeps a first sync's peak memory from being mostly pages already parsed, for a few collections
// of 20-30 ms. Pages skipped unparsed (a no-op) do not count: they leave only their bytes.
// V8 lets a process collect only when started with `--expose-gc` (the CLI's launcher passes it): a
// process started without it, a program using the library, collects when V8 decides.
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

/** V8's full collection where the process exposes one (`node --expose-gc`), else nothing: memory, not correctness, depends on it. */
export function fullCollection(exposed: unknown = (globalThis as { gc?: unknown }).gc): () => void {
  return typeof exposed === 'function' ? () => (exposed as () => void)() : () => {};
}

let gc: (() => void) | undefined;

/** The process's count: every list page parsed. */
export const afterParsing = new FullCollections(12 * 1024 * 1024, () => {
  gc ??= fullCollection();
  gc();
});
