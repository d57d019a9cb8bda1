// Which API family a path belongs to, and the one credential header that family takes.
// The family decides the credential, the rate limit and the concurrency limit of a request.
import { DsMirrorError } from '../errors.js';

export type ApiFamily = 'v1' | 'charts' | 'tokenUnlocks' | 'monitoring' | 'open';

export const API_FAMILIES: readonly ApiFamily[] = ['v1', 'charts', 'tokenUnlocks', 'monitoring', 'open'];

/** The client's own keyless path; the catalog says which of its lists take no key (a call's `keyless`). */
const OPEN_PATHS = new Set(['/health']);

function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/** `pathname` is the path as the catalog writes it, without the base URL's prefix or the query. */
export function apiFamilyOf(pathname: string, keyless = false): ApiFamily {
  if (keyless || OPEN_PATHS.has(pathname)) return 'open';
  if (isUnder(pathname, '/v1/charts')) return 'charts';
  if (isUnder(pathname, '/v1')) return 'v1';
  if (isUnder(pathname, '/token-unlocks')) return 'tokenUnlocks';
  if (isUnder(pathname, '/monitoring')) return 'monitoring';
  // An unknown path would get no family, so no credential rule: refuse rather than guess.
  throw new DsMirrorError('DS_UNKNOWN_PATH', `No API family for path ${pathname}: expected /v1, /token-unlocks, /monitoring or /health`);
}

/** The credential headers of one family. Charts reject a second credential, so each family gets exactly one. */
export function credentialHeaders(family: ApiFamily, apiKey: string): Record<string, string> {
  switch (family) {
    case 'v1':
    case 'charts':
      return { 'x-api-key': apiKey };
    case 'tokenUnlocks':
    case 'monitoring':
      return { 'X-Service-API-Key': apiKey };
    case 'open':
      return {};
  }
}
