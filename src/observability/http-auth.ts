// The credential the daemon's HTTP endpoints ask for: a bearer token or basic auth, compared in
// constant time. Bound to loopback, none is needed; bound anywhere else, the server refuses to start
// without one, since the job states, errors and the status page describe the mirror.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { HttpCredential } from '../config.js';
import { ConfigError } from '../errors.js';

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '::ffff:127.0.0.1';
}

/** Refuses a bind beyond loopback that has no credential, with the fix in one line. */
export function checkExposure(host: string, credential: HttpCredential | undefined): void {
  if (isLoopback(host) || credential) return;
  throw new ConfigError(
    `the daemon's /healthz, /metrics and /status would listen on ${host} without a credential: set "metricsAuth" ` +
      '({"bearerTokenFile": path} or {"basicAuthFile": path}) in the config file, or keep --metrics-host 127.0.0.1',
  );
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Equal texts, in a time that does not tell how much of them matched. */
function same(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function authorized(header: string | undefined, credential: HttpCredential): boolean {
  if (!header) return false;
  const space = header.indexOf(' ');
  if (space < 1) return false;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if ('bearer' in credential) return scheme === 'bearer' && same(value, credential.bearer);
  if (scheme !== 'basic') return false;
  const { user, password } = credential.basic;
  return same(Buffer.from(value, 'base64').toString('utf8'), `${user}:${password}`);
}

/** The WWW-Authenticate answer of a 401: a browser asks for the user and password of basic auth. */
export function challenge(credential: HttpCredential): string {
  return 'bearer' in credential ? 'Bearer realm="ds-mirror"' : 'Basic realm="ds-mirror", charset="UTF-8"';
}
