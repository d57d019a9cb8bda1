// Which service a mirror holds. Syncing a second service into it would mix the two and soft-delete the
// first one's rows as "no longer served", so a mirror records the base URL (normalised; never the key)
// and a later run against another URL is refused unless --force says to switch. The record is made at
// the service's first successful answer to a request that sent the key, not before: a run against a wrong
// address (a closed port, https on an http port) reaches nothing, and one with a wrong key is answered only
// on the keyless paths (market stats, which any service or mirror of it would answer): neither claims the
// mirror, and the corrected address or key just works.
import { apiFamilyOf, type ApiClient } from '../client/index.js';
import { ConfigError } from '../errors.js';
import type { Store } from '../store/types.js';

/** The base URL without credentials, query, fragment, default port or trailing slash; scheme and host in lower case. */
export function normaliseBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** Refuses a run against another service than the one the mirror holds, unless `force`; writes nothing. */
export async function checkService(store: Store, baseUrl: string, force = false): Promise<void> {
  const wanted = normaliseBaseUrl(baseUrl);
  const other = (await heldServices(store)).find((s) => s !== wanted);
  if (other !== undefined && !force) throw new ConfigError(refusal(other, wanted));
}

/**
 * Records the service once it has answered: on a mirror that holds none, or (with `force`) in place of the
 * one it holds. Refuses another one without `force`, as `checkService` does.
 */
export async function recordService(store: Store, baseUrl: string, force = false): Promise<void> {
  const wanted = normaliseBaseUrl(baseUrl);
  const held = await heldServices(store);
  if (held.length === 0) {
    // Two workers' first runs may race: the same service twice is one row; another one is refused below.
    await store.db
      .insertInto('mirrored_service')
      .values({ base_url: wanted, claimed_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('base_url').doNothing())
      .execute();
    return recordService(store, baseUrl, force);
  }
  if (held.every((s) => s === wanted)) return;
  if (!force) throw new ConfigError(refusal(held.find((s) => s !== wanted) ?? '', wanted));
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

/**
 * The client, recording its service in the mirror at the first successful answer that proves the key
 * (before that answer's rows can be written): calls that fail (refused, time-out, TLS, 4xx, 5xx) and
 * answers of keyless paths record nothing.
 */
export function recordingService(client: ApiClient, record: () => Promise<void>): ApiClient {
  let recorded: Promise<void> | undefined;
  const afterAnswer = async <T>(call: Promise<T>, path: string, keyless: boolean | undefined): Promise<T> => {
    const body = await call;
    if (apiFamilyOf(path.split('?')[0]!, keyless) === 'open') return body;
    recorded ??= record();
    await recorded;
    return body;
  };
  const wrap = (c: ApiClient): ApiClient => ({
    get: (path, query, opts) => afterAnswer(c.get(path, query, opts), path, opts?.keyless),
    getBytes: (path, query, opts) => afterAnswer(c.getBytes(path, query, opts), path, opts?.keyless),
    get stats() {
      return c.stats;
    },
    service: c.service,
    counting: (counter) => wrap(c.counting(counter)),
    close: () => c.close(),
  });
  return wrap(client);
}

/** One line: what the mirror holds, why the run is refused, and the two ways on. */
function refusal(held: string, wanted: string): string {
  const sameMachine = loopbackPair(held, wanted)
    ? ` (${new URL(held).hostname} and ${new URL(wanted).hostname} may be the same machine, but ds-mirror cannot know it is the same service: ` +
      `if it is, use --base-url ${held})`
    : '';
  return (
    `this mirror holds ${held}, not ${wanted}${sameMachine}: syncing another service into it would mix the two and soft-delete ` +
    `the first one's rows; use another --db, or --force to switch this mirror to ${wanted}`
  );
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Two URLs that differ only in the loopback name they use (localhost, 127.0.0.1, ::1). */
function loopbackPair(a: string, b: string): boolean {
  const [x, y] = [new URL(a), new URL(b)];
  return (
    LOOPBACK.has(x.hostname) && LOOPBACK.has(y.hostname) && x.protocol === y.protocol && x.port === y.port && x.pathname === y.pathname
  );
}

async function heldServices(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom('mirrored_service').select('base_url').execute();
  return rows.map((r) => String(r.base_url));
}
