// Page bodies (and the socket chunks they were read from) live outside V8's heap as array buffers, and
// only a full collection frees them. V8 starts one on its own only after tens of MB of them have died,
// so a first sync's peak memory was largely bodies already parsed (at scale 30: 20-55 MB of array
// buffers and a young generation full of garbage at the peak). Collecting after every 12 MB of bodies,
// two of the largest pages, took 20-35 MB off that peak for about 4 % more CPU (bench/RESULTS.md).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export class BodyMemory {
  private sinceCollect = 0;
  private pending = false;

  constructor(
    private readonly everyBytes: number,
    private readonly collect: () => void,
  ) {}

  /**
   * Counts a body read; once `everyBytes` have been read since the last collection, collects on the next
   * turn of the event loop, when the chunks the body was read from are garbage too.
   */
  read(bytes: number): void {
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
 * set, so it is taken from a new one (the process is not restarted with a flag for it).
 */
export function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

let gc: (() => void) | undefined;

/** The process's count: every body the client reads. */
export const bodyMemory = new BodyMemory(12 * 1024 * 1024, () => {
  gc ??= fullCollection();
  gc();
});
