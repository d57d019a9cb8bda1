// Structured logs on stderr (stdout is for what a command prints): JSON lines (pino's), or on a terminal
// one human line each. Keys and secrets are redacted by path wherever they could appear in a logged object.
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

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/**
 * pino's JSON lines as one line each for a person at a terminal: the local time, the level, the message,
 * then the other fields as key=value (the lines are already redacted: this only reformats them).
 */
export function humanLines(out: { write(text: string): unknown }): pino.DestinationStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      const time = new Date(Number(entry.time)).toTimeString().slice(0, 8);
      const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
      const fields = Object.entries(entry)
        .filter(([key]) => !OMITTED.has(key))
        .map(([key, value]) => `${key}=${fieldText(value)}`);
      out.write(`${[time, level, entry.msg ?? '', ...fields].filter((p) => p !== '').join(' ')}\n`);
    },
  };
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}
