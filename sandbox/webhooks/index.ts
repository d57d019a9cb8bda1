// The sandbox's webhook sender: envelope, signature, retry policy, delivery log.
export { WebhookSender, type WebhookSenderOptions } from './webhook-sender.js';
export { SteppedClock, type SenderClock } from './sender-clock.js';
export { buildEnvelope, type AlertInput, type MonitoringEventEnvelope } from './payload.js';
export { signatureHeader } from './signature.js';
export { MAX_ATTEMPTS, classify, retryTimings } from './retry-policy.js';
export type { AlertPolicy, DeliveryAttempt, DeliveryLog, DeliveryRequest, DeliveryState } from './types.js';
