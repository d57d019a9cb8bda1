// What every delivery writer (the SQLite writer thread, the store's own transaction) promises the group
// committer. Its own module, so the writers and openDeliveryWriter, which picks one, import it one way.
import type { AcceptedDelivery } from './delivery-rows.js';

export interface DeliveryWriter {
  /** Groups handed to it before the first has committed. */
  readonly maxInFlight: number;
  /** Commits the group durably (it survives power loss). */
  write(group: readonly AcceptedDelivery[]): Promise<Committed>;
  close(): Promise<void>;
}

export interface Committed {
  /** Delivery ids of the group that were new (the rest were retries or deliveries to another view). */
  inserted: number;
  /** Numbers the writer's commits: groups committed together share it. */
  commit: number;
}
