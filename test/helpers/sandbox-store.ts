// The setup most sync tests share: a sandbox and a fresh migrated store, started before the first test of
// the enclosing describe (or file) and closed, the store's data deleted, after its last.
import { afterAll, beforeAll } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.js';
import type { Dialect, Store } from '../../src/store/index.js';
import { openTestStore, type TestStore } from './stores.js';

export interface SandboxWithStore {
  readonly sandbox: Sandbox;
  readonly t: TestStore;
  readonly store: Store;
}

/** Read its fields inside tests and hooks: they exist from the first test on. */
export function sandboxWithStore(dialect: Dialect, sandbox: SandboxOptions): SandboxWithStore {
  let sb: Sandbox | undefined;
  let t: TestStore | undefined;
  beforeAll(async () => {
    sb = await startSandbox(sandbox); // unpinned: the caller's options name it (honest-tests.test.ts)
    t = await openTestStore(dialect);
  });
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('sandboxWithStore: read inside a test or hook, once the sandbox has started');
    return value;
  };
  return {
    get sandbox() {
      return started(sb);
    },
    get t() {
      return started(t);
    },
    get store() {
      return started(t).store;
    },
  };
}
