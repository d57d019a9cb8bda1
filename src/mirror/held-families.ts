// The quota holds /healthz reports: a family the service said is spent stops every run of it until the
// renewal, so the daemon is up but not doing all its work ("degraded"). /healthz answers synchronously,
// so the holds are read from the ledger in the background: at start, after every run, and when a probe
// finds them older than a few seconds.
import { UsageLedger } from '../budget/index.js';
import type { Store } from '../store/types.js';

export interface HeldFamily {
  family: string;
  until: string;
  reason: string;
}

const FRESH_MS = 5_000;

export interface HoldWatch {
  /** The holds as last read; a probe older than a few seconds starts a new read. */
  current(): HeldFamily[];
  refresh(): Promise<void>;
}

export function watchHolds(store: Store, now: () => number): HoldWatch {
  const ledger = new UsageLedger(store);
  let held: HeldFamily[] = [];
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  const refresh = () =>
    (reading ??= ledger
      .holds(new Date(now()))
      .then((holds) => {
        held = holds.map((h) => ({ family: h.family, until: h.until.toISOString(), reason: h.reason }));
        readAt = now();
      })
      .catch(() => {}) // the database away: keep the last answer; the run that fails says why
      .finally(() => (reading = null)));
  return {
    current() {
      if (now() - readAt > FRESH_MS) void refresh();
      return held.filter((h) => Date.parse(h.until) > now());
    },
    refresh,
  };
}
