// Records parsed and not yet written, across every list of a run: a cap on the heap its pages hold at
// once, however many lists run. A list takes a page's worth before parsing it and gives it back once the
// page is written (or found unchanged). Waiters are served in order. Each stream takes through a share of
// its own: when the stream ends, however it ended (a paging loop thrown between a page's parse and its
// write), the share gives back what it still holds, so the other lists of the run never wait for it.

import { StopError } from '../errors.js';

/** A wait for budget given up: the stream is stopping (a signal, a lost lease, a failed sibling variant). */
export class BudgetWaitAbandoned extends StopError {
  constructor() {
    super('DS_STOPPING', 'stopped while waiting for its turn to parse a page');
  }
}

export class ParseBudget {
  private used = 0;
  private readonly waiting: { n: number; resolve: () => void }[] = [];

  constructor(readonly capacity: number) {}

  /** Takes `n` records (at most the whole budget) if they are free now. */
  tryTake(n: number): boolean {
    const want = Math.min(n, this.capacity);
    if (this.waiting.length > 0 || this.used + want > this.capacity) return false;
    this.used += want;
    return true;
  }

  /**
   * Takes `n` records (at most the whole budget), waiting for earlier takers to give theirs back. An abort
   * of `signal` ends the wait with BudgetWaitAbandoned, nothing taken.
   */
  async take(n: number, signal?: AbortSignal): Promise<void> {
    if (this.tryTake(n)) return;
    if (signal?.aborted) throw new BudgetWaitAbandoned();
    await new Promise<void>((resolve, reject) => {
      const served = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const waiter = { n: Math.min(n, this.capacity), resolve: served };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        this.serve(); // the waiter behind it may fit
        reject(new BudgetWaitAbandoned());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  give(n: number): void {
    this.used -= Math.min(n, this.capacity);
    this.serve();
  }

  /** One stream's share of the budget: what it holds when it ends is given back by `close`. */
  share(): ParseShare {
    return new ParseShare(this);
  }

  private serve(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.n <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.n;
      next.resolve();
    }
  }
}

/** What one stream took from the run's budget and has not given back yet. */
export class ParseShare {
  private held = 0;

  constructor(private readonly budget: ParseBudget) {}

  tryTake(n: number): boolean {
    if (!this.budget.tryTake(n)) return false;
    this.held += Math.min(n, this.budget.capacity);
    return true;
  }

  async take(n: number, signal?: AbortSignal): Promise<void> {
    await this.budget.take(n, signal);
    this.held += Math.min(n, this.budget.capacity);
  }

  /** Gives back `n` (never more than the share holds: a page given back twice frees nothing twice). */
  give(n: number): void {
    const back = Math.min(n, this.budget.capacity, this.held);
    this.held -= back;
    this.budget.give(back);
  }

  /** The stream ended: whatever it still holds goes back to the run. */
  close(): void {
    this.give(this.held);
  }
}

/**
 * Records parsed and not yet written at once in a run, by default. While one list writes (SQLite's writes
 * give the event loop turns, sqlite-upsert.ts; PostgreSQL's wait on the server) the others would parse
 * ahead: the cap keeps a first sync's peak memory from growing with the lists in flight, at no cost in
 * time (bench/peak-memory.ts measures it).
 */
export const PARSED_RECORDS_AT_ONCE = 1500;
