// @end-to-end
// Syncs under quotas, against the sandbox enforcing the same quotas, on both stores: a run that meets a
// spent monthly quota stops at its checkpoints and the next month resumes it to a complete mirror; two
// workers on one database share the ledger and together stay within one quota; a quota the service
// announces itself (tighter than the configured one) stops the family without a retry into it. The
// sandbox never refuses a request the ledger admitted, and never serves one beyond its limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { QuotaGate } from '../../src/budget/quota-gate.js';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import type { Quotas } from '../../src/budget/quotas.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { pageNumber } from '../../src/catalog/paginator.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, settings, silent, tableSnapshot } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const quotas = (v1: Quotas['v1']): Quotas => ({ v1, tokenUnlocks: {}, monitoring: {}, open: {} });
const MONTH_S = 31 * 86_400;
/**
 * The assets at 10 a page instead of the service's 100 over a tenth of the rows (scale 0.05): a quota is
 * counted in requests, so the complete pass takes as many pages as it did at scale 0.5.
 */
const ASSET_PAGE = 10;
const streamDefs = (names: readonly string[]) =>
  resolveStreams(names).map((s) => (s.name === 'assets' ? ({ ...s, paginator: pageNumber(ASSET_PAGE) } as typeof s) : s));

/** One worker's run: its own client and gate over `store`'s ledger, on the sandbox's clock. */
async function workerRun(store: Store, sandbox: Sandbox, q: Quotas, streams: readonly string[] = ['v1'], pageWindow?: number) {
  const gate = new QuotaGate({ ledger: new UsageLedger(store), quotas: q, clock: () => sandbox.now() });
  const client = fastClient(sandbox, { gate, clock: () => sandbox.now().getTime() });
  try {
    const runSettings = settings(pageWindow === undefined ? {} : { pageWindow });
    const result = await runSync({ client, store, logger: silent, settings: runSettings, streams: streamDefs(streams) });
    return { result, gate, v1: client.stats.byFamily.v1 + client.stats.byFamily.charts };
  } finally {
    await client.close();
  }
}

/** Requests a complete assets pass needs at least: per class, its full pages and the short one that ends it. */
function assetPages(sandbox: Sandbox): number {
  const perClass = new Map<string, number>();
  for (const a of sandbox.records('assets') as { asset_class: string }[])
    perClass.set(a.asset_class, (perClass.get(a.asset_class) ?? 0) + 1);
  return [...perClass.values()].reduce((n, rows) => n + Math.floor(rows / ASSET_PAGE) + 1, 0);
}

for (const dialect of dialects) {
  describe(`syncs under quotas (${dialect})`, () => {
    let sandbox: Sandbox;
    let clean: TestStore;
    let cleanV1 = 0;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 5 });
      clean = await openTestStore(dialect);
      // The mirror the stopped pass must end equal to (its assets), and on PostgreSQL a whole run's /v1
      // requests, which the two workers' quota is cut from: SQLite's clean run syncs the assets alone.
      cleanV1 = (await workerRun(clean.store, sandbox, quotas({}), dialect === 'postgres' ? ['v1'] : ['assets'])).v1;
    });
    afterAll(async () => {
      await clean?.cleanup();
      await sandbox?.close();
    });

    it('stops at the checkpoints when the monthly quota is spent, and the next month completes the pass', async () => {
      const t = await openTestStore(dialect);
      try {
        // The complete assets pass, the one that spans months on the real service, at a quota just short of
        // it, so the first month stops. The pages a stop leaves fetched but unwritten (at most window - 1 per
        // asset class) are read again next month, so the limit leaves room for them: with a window of 2,
        // a month of `needed - 2` writes at least `needed - 5` pages, and the rest fits the second month.
        // Counted from the pages, not from a clean run, whose read-ahead past each class's end varies.
        const window = 2;
        const needed = assetPages(sandbox);
        const limit = needed - 2;
        sandbox.clearQuota(); // the clean runs' requests are not this mirror's
        sandbox.setQuota(`v1=${limit}/month`);
        const first = await workerRun(t.store, sandbox, quotas({ perMonth: limit }), ['assets'], window);
        expect(first.result.outcome).toBe('stopped');
        const stopped = first.result.streams.filter((s) => s.outcome === 'stopped');
        expect(stopped.length).toBeGreaterThan(0);
        for (const s of stopped)
          expect(s.error).toMatch(/the \/v1 monthly quota is spent \(\d+ of \d+ requests\); it renews \d{4}-\d\d-01 00:00 UTC/);
        expect(first.result.streams.filter((s) => s.outcome === 'failed')).toEqual([]);
        expect((await new UsageLedger(t.store).usage('v1', sandbox.now())).month).toBe(limit);

        await sandbox.advance({ seconds: MONTH_S, updateFraction: 0, addFraction: 0, removeFraction: 0 });
        const second = await workerRun(t.store, sandbox, quotas({ perMonth: limit }), ['assets'], window);
        expect(second.result.outcome).toBe('success');
        expect(await tableSnapshot(t.store, 'assets')).toEqual(await tableSnapshot(clean.store, 'assets'));
        // Resumed, not restarted: a restart would need every page again.
        expect(second.v1).toBeLessThan(needed);
        const report = sandbox.quota();
        expect([report.refused, report.exceeded]).toEqual([0, false]);
      } finally {
        sandbox.clearQuota();
        await t.cleanup();
      }
    });

    // Workers are processes; two SQLite connections in one process would block each other's event loop
    // (better-sqlite3 waits for a lock synchronously), so this runs where workers share a server.
    it.runIf(dialect === 'postgres')('lets two workers on one database share the ledger and stay within one quota together', async () => {
      const t = await openTestStore(dialect);
      try {
        const limit = Math.floor(cleanV1 * 0.75);
        sandbox.clearQuota();
        sandbox.setQuota(`v1=${limit}/day`);
        const other = await t.openAnother();
        // Two workers, each on its own connection, each with the whole mirror to do.
        const [a, b] = await Promise.all([
          workerRun(t.store, sandbox, quotas({ perDay: limit })),
          workerRun(other, sandbox, quotas({ perDay: limit })),
        ]);
        expect(a.v1 + b.v1).toBeLessThanOrEqual(limit);
        expect((await new UsageLedger(t.store).usage('v1', sandbox.now())).today).toBe(a.v1 + b.v1);
        const report = sandbox.quota();
        expect(report.families.v1.used.day).toBe(a.v1 + b.v1);
        expect([report.refused, report.exceeded]).toEqual([0, false]);
      } finally {
        sandbox.clearQuota();
        await t.cleanup();
      }
    });

    it('stops a family the service says is spent, without retrying into it, and holds it for the next run', async () => {
      const t = await openTestStore(dialect);
      try {
        sandbox.clearQuota();
        sandbox.setQuota('v1=5/day'); // tighter than the plan the tool was told about
        const run = await workerRun(t.store, sandbox, quotas({ perMonth: 100_000 }));
        expect(run.result.outcome).toBe('stopped');
        expect(run.gate.refused.get('v1')?.message).toMatch(/the service says the \/v1 allowance is spent .*nothing more is sent until/);
        // Requests already in flight when the first 429 came may be refused too; nothing is retried. The
        // v1 and charts lanes (16 each in the fast client) both spend the /v1 quota: at most 32 in flight.
        const report = sandbox.quota();
        expect(report.families.v1.used.day).toBe(5);
        expect(report.refused).toBe(run.v1 - 5);
        expect(report.refused).toBeLessThanOrEqual(2 * 16);
        const again = await workerRun(t.store, sandbox, quotas({ perMonth: 100_000 }));
        expect(again.v1).toBe(0);
        expect(again.result.outcome).toBe('stopped');
        expect(sandbox.quota().families.v1.used.day).toBe(5);
      } finally {
        sandbox.clearQuota();
        await t.cleanup();
      }
    });
  });
}
