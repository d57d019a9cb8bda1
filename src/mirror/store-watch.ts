// Whether the store answers, for /healthz: a daemon whose database is down is up but does no work
// ("degraded"), and says so until a query succeeds again. Like the quota holds, it is read in the
// background (a probe never waits on the database): at start, after every run, and when a probe finds
// the answer older than a few seconds.
import { describeStoreError } from '../store/storage-errors.js';
import type { Store } from '../store/types.js';

const FRESH_MS = 2_000;
/**
 * A query that has not answered by then counts as unreachable (a server that accepts and says nothing):
 * 5 s, or the store's connect bound (dbConnectTimeoutMs) when that is shorter, as a ping is no more than a
 * connection's first statement: a user who bounds a connection at 1 s hears of a silent server as soon.
 */
const PING_TIMEOUT_MS = 5_000;

export interface StoreWatch {
  /** Why the store is unreachable as last checked, or null when it answered; a stale answer starts a check. */
  current(): string | null;
  refresh(): Promise<void>;
}

export function watchStore(store: Store, now: () => number, connectMs = PING_TIMEOUT_MS): StoreWatch {
  const timeoutMs = Math.min(PING_TIMEOUT_MS, connectMs);
  let problem: string | null = null;
  let checkedAt = -Infinity;
  let checking: Promise<void> | null = null;
  const refresh = () =>
    (checking ??= ping(store, timeoutMs)
      .then(
        () => (problem = null),
        (err: unknown) => (problem = `the database does not answer: ${describeStoreError(err, store.location)}`),
      )
      .then(() => void (checkedAt = now()))
      .finally(() => (checking = null)));
  return {
    current() {
      if (now() - checkedAt > FRESH_MS) void refresh();
      return problem;
    },
    refresh,
  };
}

async function ping(store: Store, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([store.ping(), late]);
  } finally {
    clearTimeout(timer);
  }
}
