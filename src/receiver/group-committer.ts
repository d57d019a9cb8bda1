// Group commit: every delivery that arrives while a commit runs waits for the next one, and each
// request is answered only after its own group has committed. One durable commit then serves many
// requests, which is what lets the receiver keep up with many concurrent senders; the group grows
// by itself with the load (everything that queued during the last commit).
import type { AcceptedDelivery } from './delivery-rows.js';
import type { DeliveryWriter } from './delivery-writer.js';

// Bounds one commit's work (and so the wait of the requests behind it).
const MAX_GROUP = 1000;

export interface GroupResult {
  /** Delivery rows actually inserted (the rest were retries or deliveries to another view). */
  inserted: number;
  size: number;
}

interface Pending {
  delivery: AcceptedDelivery;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommitter {
  private queue: Pending[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly writer: DeliveryWriter,
    private readonly onCommit: (result: GroupResult) => void = () => {},
  ) {}

  /** Resolves once the delivery's group has committed; rejects with the writer's error otherwise. */
  submit(delivery: AcceptedDelivery): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Let the requests that finished in this same I/O turn join the first group.
        setImmediate(() => void this.run());
      }
    });
  }

  /** Resolves when nothing is queued or committing. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_GROUP);
      try {
        const inserted = await this.writer.write(group.map((p) => p.delivery));
        this.onCommit({ inserted, size: group.length });
        for (const p of group) p.resolve();
      } catch (err) {
        for (const p of group) p.reject(err);
      }
    }
    this.running = false;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
