// Structured logs on stderr (stdout is for what a command prints). Keys and secrets are redacted by
// path wherever they could appear in a logged object.
import pino, { type Logger } from 'pino';

const REDACT = [
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'secrets',
  '*.secrets',
  'webhookSecret',
  '*.webhookSecret',
  'headers["x-api-key"]',
  'headers["x-service-api-key"]',
  '*.headers["x-api-key"]',
  '*.headers["x-service-api-key"]',
];

export function createLogger(level: string, destination: pino.DestinationStream = pino.destination({ fd: 2, sync: true })): Logger {
  return pino({ level, base: { pid: process.pid }, redact: { paths: REDACT, censor: '[redacted]' } }, destination);
}
