// The client asks a gate before every attempt (retries included): the usage ledger's quotas plug in
// here, so the client knows nothing about days, months or the store.
import type { ApiFamily } from './api-family.js';
import type { ServiceQuotaError } from './client-errors.js';

export interface RequestGate {
  /** Resolves when a request of `family` may be sent; rejects (nothing sent) when its quota is spent. */
  admit(family: ApiFamily): Promise<void>;
  /**
   * Asked again after an admitted request waited for its pace slot, before it is sent: throws when the
   * family has been held since (the service announced its allowance spent, here or to another worker).
   */
  check?(family: ApiFamily): void;
  /** The service answered that the family's allowance is spent; returns the error the request fails with. */
  spent(family: ApiFamily, said: ServiceQuotaError): Promise<Error>;
  /** Called once when the client closes: reserved requests never sent are given back. */
  settle(): Promise<void>;
  /** An admitted request never reached the service (refused connection, DNS, TLS): it is not charged. */
  refund?(family: ApiFamily): void;
  /**
   * Where workers share the family's pace (one PostgreSQL database), takes the next slot of the shared
   * minute and resolves with the ms to wait for it; `intervalMs` is the spacing the family's pace needs.
   */
  pace?(family: ApiFamily, intervalMs: number): Promise<number>;
}
