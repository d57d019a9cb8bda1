// Alert policies and the delivery log of the sandbox's webhook sender.

/** A monitoring view's alert policy, named as the spec's policy settings. */
export interface AlertPolicy {
  cadence: 'immediately' | 'daily' | 'weekly';
  delivery_types: string[];
  webhook_url?: string;
  webhook_secret?: string;
}

export type DeliveryState = 'scheduled' | 'in-flight' | 'delivered' | 'failed' | 'exhausted' | 'aborted';

export interface DeliveryAttempt {
  number: number;
  /** Wall-clock time the attempt started (RFC 3339), for diagnostics: retries and time-outs follow the sender's clock. */
  at: string;
  durationMs: number;
  /** HTTP status when the receiver answered. */
  status?: number;
  /** Why the attempt failed without a status (network error, time-out, abort). */
  error?: string;
}

/** One delivery = one envelope id POSTed to one view's URL. */
export interface DeliveryLog {
  id: string;
  viewId: string;
  url: string;
  /** The raw JSON body sent on every attempt. */
  body: string;
  signed: boolean;
  attempts: DeliveryAttempt[];
  /** delivered: 2xx; failed: a permanent 4xx; exhausted: 5 retryable failures; aborted: sender closed. */
  state: DeliveryState;
}

export interface DeliveryRequest {
  id: string;
  viewId: string;
  url: string;
  secret?: string;
  body: string;
}
