// Public surface of the webhook receiver; the CLI and the daemon use only these.
export { startReceiver, RECEIVER_DEFAULTS, type Receiver, type ReceiverOptions, type ReceiverStats } from './start-receiver.js';
export { loadSecrets } from './load-secrets.js';
export { unresolvedViewLine, unresolvedViews } from './view-rules.js';
export { alertsPerView, alertsSince, deliveryTotals, type AlertRow, type DeliveryTotals } from './receiver-reads.js';
