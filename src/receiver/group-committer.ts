// Group commit: deliveries that arrive while commits run wait for the next group, and each request
// is answered only after its own group has committed. One durable commit then serves many requests,
// which is what lets the receiver keep up with many concurrent senders; the group grows by itself
// with the load (everything that queued meanwhile). A group the store refuses because of what one
// delivery holds is split in halves until that delivery is alone: only it is refused, for good.
import { isRecordError } from '../store/storage-errors.js';
import type { AcceptedDelivery } from './delivery-rows.js';
import type { Committed, DeliveryWriter } from './delivery-writer.js';

// Bounds one commit's work (and so the wait of the requests behind it).
const MAX_GROUP = 1000;

export interface GroupResult extends Committed {
  deliveries: readonly AcceptedDelivery[];
  /** From handing the group to the writer to its commit. */
  ms: number;
}

/** The store refuses this delivery's content whatever the retry: the sender must stop (a 4xx). */
export class UnstorableDeliveryError extends Error {
  constructor(cause: unknown) {
    super(`the store refuses this delivery: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'UnstorableDeliveryError';
  }
}

interface Pending {
  delivery: AcceptedDelivery;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommitter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly writer: DeliveryWriter,
    private readonly onCommit: (result: GroupResult) => void = () => {},
  ) {}

  /** Resolves once the delivery's group has committed; rejects with the writer's error otherwise. */
  submit(delivery: AcceptedDelivery): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves when nothing is queued or committing. */
  idle(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.writer.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    // Let the requests that finished in this same I/O turn join the group.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.inFlight >= this.writer.maxInFlight || this.queue.length === 0) return;
    const group = this.queue.splice(0, MAX_GROUP);
    this.inFlight++;
    this.commit(group).finally(() => {
      this.inFlight--;
      if (this.queue.length > 0) this.flush();
      else if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    });
  }

  /** Never rejects: every delivery of the group is resolved or rejected. */
  private async commit(group: readonly Pending[]): Promise<void> {
    const deliveries = group.map((p) => p.delivery);
    const started = performance.now();
    try {
      const committed = await this.writer.write(deliveries);
      this.onCommit({ ...committed, deliveries, ms: performance.now() - started });
      for (const p of group) p.resolve();
    } catch (err) {
      // Storage that cannot write fails everyone alike (503, the senders retry later).
      if (!isRecordError(err)) for (const p of group) p.reject(err);
      else if (group.length === 1) group[0]!.reject(new UnstorableDeliveryError(err));
      else {
        const half = Math.ceil(group.length / 2);
        await this.commit(group.slice(0, half));
        await this.commit(group.slice(half));
      }
    }
  }
}
