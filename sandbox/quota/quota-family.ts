// Which quota family a request counts against: /v1 paths by their route's credential rule (a path
// that declares none, market stats, is `open`), the partner's services by prefix. Anything else
// (unknown /v1 paths, other methods, /health, /_sandbox) counts against none.
import type { Router } from '../routes/router.js';
import type { QuotaFamily } from './quota-spec.js';

export function quotaFamily(method: string | undefined, path: string, router: Router): QuotaFamily | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (path.startsWith('/monitoring/')) return 'monitoring';
  if (path.startsWith('/token-unlocks/')) return 'tokenUnlocks';
  if (!path.startsWith('/v1/')) return null;
  try {
    const match = router.match(path);
    return match ? (match.route.auth === 'open' ? 'open' : 'v1') : null;
  } catch {
    return null; // a malformed %-escape: answered 400 before any route runs
  }
}
