// A family-wide stop: once the service refused a family's key (401, 403) or announced its allowance spent,
// nothing more of that family leaves the client, whichever stream asks and wherever its request waits
// (for a concurrency slot, a retry or its pace slot). Charts take /v1's key and count against its
// allowance, so a stop of either is a stop of both; the keyless paths are never stopped by a key.
import { credentialHeaders, type ApiFamily } from './api-family.js';
import { KeyRefusedError, type AuthError } from './client-errors.js';
import type { RequestGate } from './request-gate.js';

type StopGroup = Exclude<ApiFamily, 'charts'>;

const groupOf = (family: ApiFamily): StopGroup => (family === 'charts' ? 'v1' : family);

export class FamilyStops {
  /** The error every later request of the group fails with; a promise while the stop is being recorded (a hold). */
  private readonly pending = new Map<StopGroup, Promise<Error>>();
  private readonly settled = new Map<StopGroup, Error>();

  /**
   * Stops the family at once (synchronously: a request leaving in the next tick already sees it), with the
   * error `why` resolves to. The first stop of a family stands; later ones return it.
   */
  stop(family: ApiFamily, why: Promise<Error>): Promise<Error> {
    const group = groupOf(family);
    const known = this.pending.get(group);
    if (known) return known;
    // Recording a hold may fail (the store is gone): that failure is then what the family's requests say.
    const error = why
      .catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))))
      .then((e) => {
        this.settled.set(group, e);
        return e;
      });
    this.pending.set(group, error);
    return error;
  }

  /** The error a request of `family` fails with now, or undefined while the family may send. */
  of(family: ApiFamily): Promise<Error> | undefined {
    return this.pending.get(groupOf(family));
  }

  /**
   * Throws the family's stop, if it has one: the service refused its key or said its allowance is spent, in
   * this client or, as the gate learned it, to another worker (a hold in the shared ledger).
   */
  async check(family: ApiFamily, gate: RequestGate | undefined): Promise<void> {
    const stop = this.of(family);
    if (stop) throw await stop;
    gate?.check?.(family);
  }

  /** The stops recorded so far, one per family (charts under v1): what the run reports once. */
  all(): ReadonlyMap<StopGroup, Error> {
    return this.settled;
  }
}

const FAMILY_NAMES: Record<ApiFamily, string> = {
  v1: '/v1 (and charts)',
  charts: '/v1 (and charts)',
  tokenUnlocks: 'token-unlocks',
  monitoring: 'monitoring',
  open: 'the keyless paths',
};

/** The one line every request of a family whose key was refused fails with: where the key came from, and its header. */
export function keyRefused(first: AuthError, keySource: string | undefined): KeyRefusedError {
  const header = Object.keys(credentialHeaders(first.family, 'key'))[0] ?? 'no header';
  return new KeyRefusedError(first, keySource, header, FAMILY_NAMES[first.family]);
}
