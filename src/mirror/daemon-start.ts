// The daemon's start behind its open door (daemon-door.ts): the store opened and the start made, and made
// again after each failure the database may recover from (refused, silent, locked), with a backoff, a log
// line per attempt and /healthz `starting` saying what it waits for. Any other failure ends the start as
// before (one line). A stop signal ends the wait at any moment of it.
import type { Logger } from 'pino';
import type { DaemonDoor } from '../observability/daemon-door.js';
import { describeStoreError, mayAnswerLater } from '../store/index.js';
import type { Store } from '../store/types.js';

/** 1 s, 2 s, 4 s ... up to 30 s between attempts. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export interface StartOptions<T> {
  open: () => Promise<Store>;
  /** Closes what `open` opened, after a failed attempt. */
  close: () => Promise<void>;
  /** What the start does once the store is open (it may fail on the store too). */
  start: (store: Store) => Promise<T>;
  door: DaemonDoor;
  logger: Logger;
  /** The database, for messages (no password). */
  where: string;
  /** Resolves at the stop signal. */
  stopped: Promise<unknown>;
}

export type Started<T> = { store: Store; started: T } | 'stopped';

export async function startWhenStoreAnswers<T>(opts: StartOptions<T>): Promise<Started<T>> {
  const stopped = opts.stopped.then(() => 'stopped' as const);
  opts.door.waiting(`the database ${opts.where}`);
  for (let attempt = 1; ; attempt++) {
    const attempted = (async () => {
      const store = await opts.open();
      return { store, started: await opts.start(store) };
    })().catch((err: unknown) => ({ err }));
    const outcome = await Promise.race([attempted, stopped]);
    if (outcome === 'stopped') return outcome;
    if ('started' in outcome) return outcome;
    await opts.close().catch(() => {});
    if (!mayAnswerLater(outcome.err)) throw outcome.err;
    const waitMs = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (attempt - 1));
    const why = describeStoreError(outcome.err, opts.where);
    opts.logger.warn(
      { attempt, retryInSeconds: waitMs / 1000, err: why },
      `the daemon waits for its database: trying again in ${waitMs / 1000} s`,
    );
    opts.door.waiting(`the database ${opts.where} (attempt ${attempt}: ${why}; the next in ${waitMs / 1000} s)`);
    if ((await Promise.race([delay(waitMs), stopped])) === 'stopped') return 'stopped';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
