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
  const held = await heldServices(store);
  if (held.length === 0) {
    // Two workers' first runs may race: the same service twice is one row; another one is refused below.
    await store.db
      .insertInto('mirrored_service')
      .values({ base_url: wanted, claimed_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('base_url').doNothing())
      .execute();
    return claimService(store, baseUrl, force);
  }
  const other = held.find((s) => s !== wanted);
  if (other === undefined) return;
  if (!force) {
    throw new ConfigError(
      `this mirror holds ${other}, not ${wanted}: syncing another service into it would mix the two and soft-delete ` +
        `the first one's rows; use another --db, or --force to switch this mirror to ${wanted}`,
    );
  }
  // One row: the service held now (two workers switching at once both end with it).
  await store.transaction(async (tx) => {
    await tx.db.deleteFrom('mirrored_service').where('base_url', '<>', wanted).execute();
    await tx.db
      .insertInto('mirrored_service')
      .values({ base_url: wanted, claimed_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('base_url').doNothing())
      .execute();
  });
}

async function heldServices(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom('mirrored_service').select('base_url').execute();
  return rows.map((r) => String(r.base_url));
}
