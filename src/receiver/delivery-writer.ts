// What commits accepted deliveries: the contract the group committer writes through, fulfilled by the
// store's durable writer (open-delivery-writer.ts).
import type { AcceptedDelivery } from './delivery-rows.js';

export interface DeliveryWriter {
  /** Groups handed to it before the first has committed. */
  readonly maxInFlight: number;
  /** Commits the group durably (it survives power loss). */
  write(group: readonly AcceptedDelivery[]): Promise<Committed>;
  close(): Promise<void>;
}

export interface Committed {
  /** (delivery id, view) pairs of the group that were new (the rest were retries). */
  inserted: number;
  /** Numbers the writer's commits: groups committed together share it. */
  commit: number;
}
