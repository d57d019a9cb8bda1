// Credential rules of the spec. Charts take x-api-key or x-service-api-key but never both (we answer
// 401, the status the spec leaves open); other /v1 routes take x-api-key; /health and
// /v1/market-stats take none. Messages never echo a key.
import { timingSafeEqual } from 'node:crypto';
import { unauthorized } from './http-error.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthRule } from '../routes/route.js';

function same(given: string, expected: Buffer): boolean {
  const b = Buffer.from(given);
  return b.length === expected.length && timingSafeEqual(b, expected);
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

export function checkAuth(rule: AuthRule, headers: IncomingHttpHeaders, key: Buffer): void {
  if (rule === 'open') return;
  const apiKey = single(headers['x-api-key']);
  const serviceKey = single(headers['x-service-api-key']);
  if (rule === 'charts' && apiKey !== undefined && serviceKey !== undefined) {
    throw unauthorized('Send one credential: x-api-key or x-service-api-key, not both');
  }
  const given = rule === 'charts' ? (apiKey ?? serviceKey) : apiKey;
  if (given === undefined) {
    throw unauthorized(
      rule === 'charts'
        ? 'Missing API key: send it in the x-api-key or x-service-api-key header'
        : 'Missing API key: send it in the x-api-key header',
    );
  }
  if (!same(given, key)) throw unauthorized('Invalid API key');
}
