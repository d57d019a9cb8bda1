// Group commit: every delivery that arrives while a transaction runs waits for the next one, and
// each request is answered only after its own group has committed. One durable commit then serves
// many requests, which is what lets the receiver keep up with many concurrent senders.
import { keyString, type Row, type Store } from '../store/types.js';
import type { DeliveryRows } from './delivery-rows.js';

// Bounds the rows per statement well under SQLite's and PostgreSQL's bind-parameter limits.
const MAX_GROUP = 500;

export interface GroupResult {
  /** Delivery rows actually inserted (the rest were retries or deliveries to another view). */
  inserted: number;
  size: number;
}

interface Pending {
  rows: DeliveryRows;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommitter {
  private queue: Pending[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly onCommit: (result: GroupResult) => void = () => {},
  ) {}

  /** Resolves once the delivery's group has committed; rejects with the store's error otherwise. */
  submit(rows: DeliveryRows): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
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
        const inserted = await this.commit(group.map((p) => p.rows));
        this.onCommit({ inserted, size: group.length });
        for (const p of group) p.resolve();
      } catch (err) {
        for (const p of group) p.reject(err);
      }
    }
    this.running = false;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private commit(group: readonly DeliveryRows[]): Promise<number> {
    return this.store.transaction(async (tx) => {
      const inserted = await tx.insertIgnore('webhook_deliveries', ['id'], firstByKey(group.map((r) => r.delivery), ['id']));
      // Every delivery adds its (view, event) pair, even a duplicate delivery id: the same event
      // delivered to a second view shares the id but is a second alert.
      await tx.insertIgnore('alert_history', ['view_id', 'event_id'], firstByKey(group.map((r) => r.alert), ['view_id', 'event_id']));
      // Insert-only: a development the sync already fetched in detail is never overwritten.
      await tx.insertIgnore('monitoring_developments', ['id'], firstByKey(group.map((r) => r.development), ['id']));
      return inserted;
      // Acknowledged deliveries must survive power loss too: the sender will not send them again.
    }, { durable: true });
  }
}

/**
 * Keeps the first row of each key, so the earliest arrival wins inside a group as across groups,
 * sorted by key: receivers sharing one PostgreSQL then take row locks in the same order and
 * cannot deadlock on the same deliveries.
 */
function firstByKey(rows: readonly Row[], key: readonly string[]): Row[] {
  const first = new Map<string, Row>();
  for (const row of rows) {
    const k = keyString(key.map((c) => row[c]));
    if (!first.has(k)) first.set(k, row);
  }
  return [...first.keys()].sort().map((k) => first.get(k)!);
}
