// Which service a mirror holds. Syncing a second service into it would mix the two and soft-delete the
// first one's rows as "no longer served", so the first sync records the base URL (normalised; never the
// key) and a later one against another URL is refused unless --force says to switch.
import { ConfigError } from '../errors.js';
import type { Store } from '../store/types.js';

/** The base URL without credentials, query, fragment, default port or trailing slash; host in lower case. */
export function normaliseBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** Records the service on a mirror's first sync; refuses another one unless `force` (which records it). */
export async function claimService(store: Store, baseUrl: string, force = false): Promise<void> {
  const wanted = normaliseBaseUrl(baseUrl);
  const held = (await store.db.selectFrom('mirrored_service').select('base_url').executeTakeFirst())?.base_url as string | undefined;
  if (held === wanted) return;
  if (held !== undefined && !force) {
    throw new ConfigError(
      `this mirror holds ${held}, not ${wanted}: syncing another service into it would mix the two and soft-delete ` +
        `the first one's rows; use another --db, or --force to switch this mirror to ${wanted}`,
    );
  }
  // One row: the service held now.
  await store.transaction(async (tx) => {
    await tx.db.deleteFrom('mirrored_service').execute();
    await tx.db.insertInto('mirrored_service').values({ base_url: wanted, claimed_at: new Date().toISOString() }).execute();
  });
}
