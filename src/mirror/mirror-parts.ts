// What every run of a mirror is put together from: its configuration, its logger, and its store, opened
// (made and migrated) when first asked for and the same one after, until it is closed.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Store } from '../store/types.js';
import { openConfiguredStore } from './configured.js';

export interface MirrorParts {
  readonly config: Readonly<Config>;
  readonly logger: Logger;
  /** The store, opened at the first call; a failed opening is tried anew at the next. */
  store(): Promise<Store>;
  /** Whether the store is open (or opening). */
  isOpen(): boolean;
  /** Closes the store if it is open; the next `store()` opens it again. */
  closeStore(): Promise<void>;
}

export function mirrorParts(config: Readonly<Config>, logger: Logger): MirrorParts {
  let opened: Promise<Store> | null = null;
  return {
    config,
    logger,
    store: () => {
      const opening = (opened ??= openConfiguredStore(config, logger));
      opening.catch(() => {
        if (opened === opening) opened = null;
      });
      return opening;
    },
    isOpen: () => opened !== null,
    closeStore: async () => {
      const closing = opened;
      opened = null;
      const store = await closing?.catch(() => null);
      await store?.close();
    },
  };
}
