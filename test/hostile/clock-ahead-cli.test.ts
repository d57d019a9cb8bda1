// @end-to-end
// A clock a year ahead, as a user meets it (bin/ds-mirror.js spawned, on both stores, the child's clock
// moved; the mirror read with sqlite3 / psql). With 12 /v1 requests a month, a run under a clock at the
// same day a year on spends the month; the requests it dated a year ahead count once, in the month the
// mirror is in: `budget` says so before any run, the next run in that month sends nothing and says the
// present renewal (the first of next month), and the run of the next month sends requests again, saying
// its own month's renewal, `budget` saying its month empty before it (a month later still is the same sum:
// the renewal of each month is the first of the next, as the present's run already shows). Once every ledger
// row is in the month `budget` reads, its figure is the ledger's sum, read here with sqlite3/psql (that
// `budget` says that sum to the request is one-set-of-figures-cli's). The present's run needs no clock
// moved: it runs in this process through the library's door (openMirror: the CLI's configuration, quota
// gate and ledger), its spent quota read from what it returns (the CLI prints those lines: the other runs),
// and so does the present's `budget` (the CLI's main: the same command and output; its process's door is
// one-set-of-figures-cli's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { countWithShellTool, mirrorCli, mirrorEnv } from '../helpers/cli-user.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { libraryRun } from '../helpers/library-run.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const HOUR = 3_600_000;
/** Fewer than a complete /v1 pass sends at scale 0.2 (18): every run spends the month. */
const QUOTA = 12;
/** The month's quota; the pace lifted (not watched here: family-stop's), ~0.1 s a request of waiting less. */
const LIMITS = { limits: { v1: { requestsPerMonth: QUOTA, requestsPerMinute: 1_000_000 } } };
/** What a run says of the spent month, and the same as a pattern. */
const SPENT_TEXT = `/v1 monthly quota is spent (${QUOTA} of ${QUOTA} requests)`;
const SPENT = SPENT_TEXT.replace(/[()]/g, '\\$&');

/** The first of the month `months` after `at`'s, at 00:00 UTC, as the renewals are written. */
const firstOf = (at: Date, months: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
const day = (at: Date) => at.toISOString().slice(0, 10);

for (const dialect of dialects) {
  describe(`a clock a year ahead, on the command line (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;
    let cli: ReturnType<typeof mirrorCli>;
    // The present is the test's own; the later day is the 3rd of the next month.
    const present = new Date();
    const ahead = new Date(present.getTime() + 365 * 24 * HOUR);
    const nextMonth = new Date(firstOf(present, 1).getTime() + 2 * 24 * HOUR + 10 * HOUR);
    const hoursTo = (at: Date) => (at.getTime() - Date.now()) / HOUR;
    const sync = (at: Date) => cli(['sync', 'v1', '--full', '--force', '--no-progress'], { hoursLater: hoursTo(at) });
    /** `budget --json` at `at` (a spawned CLI with its clock moved), or now (the CLI's main in this process). */
    const budget = async (at: Date | 'now') => {
      const out =
        at === 'now'
          ? await cliInProcess(['budget', '--json'], mirrorEnv(sandbox, t, join(dir, 'config.json')))
          : await cli(['budget', '--json'], { hoursLater: hoursTo(at) });
      expect(out.code, out.stderr).not.toBe(2);
      const report = JSON.parse(out.stdout) as { usage: { family: string; month: number; left: number; renewsAt: string }[] };
      return report.usage.find((u) => u.family === 'v1')!;
    };
    /** `sync v1 --full --force` now, in this process through the library's door: the quotas it says spent. */
    const presentRun = async () =>
      (
        await libraryRun({ config: join(dir, 'config.json'), db: t.url, dbSchema: t.schema }, sandbox, {
          streams: ['v1'],
          full: true,
          force: true,
        })
      ).quotasSpent;
    const sent = () => countWithShellTool(t, "select coalesce(sum(requests), 0) from usage_ledger where family = 'v1'");

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-clock-ahead-'));
      cli = mirrorCli(sandbox, t, dir, LIMITS);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('spends the month once, in the month the mirror is in, and the next month renews on its first day', async () => {
      const first = await sync(ahead);
      expect(first.stdout).toMatch(new RegExp(`${SPENT}; it renews ${day(firstOf(ahead, 1))} 00:00 UTC`));
      const spentAhead = sent();
      expect(spentAhead).toBeGreaterThan(QUOTA / 2);
      expect(spentAhead).toBeLessThanOrEqual(QUOTA);
      // Read in the present before any run: the requests dated a year on count in this month, and `budget`
      // says the present renewal (no clock moved: the CLI's main in this process).
      expect(await budget('now')).toMatchObject({
        month: spentAhead,
        left: QUOTA - spentAhead,
        renewsAt: firstOf(present, 1).toISOString(),
      });

      // The present's run takes what is left of this month, says this month's renewal, and moves the rows.
      expect(await presentRun()).toEqual([`the ${SPENT_TEXT}; it renews ${day(firstOf(present, 1))} 00:00 UTC`]);
      expect(sent()).toBeLessThanOrEqual(QUOTA);
      expect(countWithShellTool(t, `select count(*) from usage_ledger where day > '${day(new Date(present.getTime() + 48 * HOUR))}'`)).toBe(
        0,
      );

      // The next month's run sends again and says its own month's renewal; `budget` agrees before and after.
      const before = sent();
      expect(await budget(nextMonth)).toMatchObject({ month: 0, left: QUOTA, renewsAt: firstOf(nextMonth, 1).toISOString() });
      const next = await sync(nextMonth);
      expect(next.stdout).toMatch(new RegExp(`${SPENT}; it renews ${day(firstOf(nextMonth, 1))} 00:00 UTC`));
      const spent = sent() - before;
      expect(spent).toBeGreaterThan(QUOTA / 2);
      expect(spent).toBeLessThanOrEqual(QUOTA);
    });
  });
}
