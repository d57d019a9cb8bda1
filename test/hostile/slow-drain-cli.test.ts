// @end-to-end
// A list drained a little each pass, as a user meets it (bin/ds-mirror.js spawned, on both stores, the mirror
// read with sqlite3 / psql, the child's clock moved hours on). Each pass loses 4.5% of the list, no more than
// maxDeleteShare of what it holds, yet measured against the list's size at its last confirmed pass the
// second step is past the share: it is held (exit 4, the notice, `status`) until a complete pass 6 h later
// agrees or the operator confirms; the agreement confirms the list anew, and the mark starts from there.
// The monitoring events' own deletion path is held the same way, and their ids back upper-cased wait too.
// The passes that only move the mirror on run in this process with its clock moved (sync-later.ts), their
// holds read from the run's result and the mirror: a CLI process for each run whose output is read. The
// events' runs all run here: what the CLI says of a drain is the chains', of ids back in another case
// renamed-keys-cli's (the same notices, from the same deletion gate).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { countWithShellTool, mirrorCli, readWithShellTool } from '../helpers/cli-user.js';
import { NO_DETAILS, settings, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { fullPassLater } from '../helpers/sync-later.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

// 4.5%: the sandbox rounds, and a step of more than 5% of what the mirror holds is held at once anyway.
const DRAIN = { seconds: 3600, updateFraction: 0, addFraction: 0, removeFraction: 0.045 };
/** 4% of 100 events a step: whole events (4, then 4 of 96), each step within the share of what the mirror holds. */
const EVENTS_DRAIN = { ...DRAIN, removeFraction: 0.04 };

for (const dialect of dialects) {
  describe(`a list drained 4.5% a pass, on the command line (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;
    let cli: ReturnType<typeof mirrorCli>;
    const count = (query: string) => countWithShellTool(t, query);
    const live = (table: string) => count(`select count(*) from ${table} where deleted_at is null`);
    /** The rows held back per variant, as `status --json` says them to a user. */
    const heldFor = async (stream: string) => {
      const out = await cli(['status', '--json']);
      expect([out.code, out.stderr]).toEqual([0, '']);
      const status = JSON.parse(out.stdout) as { stream: string; heldDeletions: { rows: number }[] }[];
      return status.find((s) => s.stream === stream)!.heldDeletions.map((h) => h.rows);
    };
    /** The same from the table `status` reads them from (deletion_holds), with sqlite3 / psql: no CLI process. */
    const heldInMirror = (stream: string) =>
      readWithShellTool(t, `select held_rows from deletion_holds where stream = '${stream}' order by variant`).map(([rows]) =>
        Number(rows),
      );
    /** The sandbox loses 5% of every list; returns what `resource` holds now. */
    const drain = async (resource: 'chains') => {
      await sandbox.advance(DRAIN);
      return sandbox.records(resource).length;
    };

    beforeAll(async () => {
      // 0.25: 50 chains, each step 2 of them (4%, 4.2%, ...): the second past the share of the confirmed 50.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.25, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-drain-cli-'));
      cli = mirrorCli(sandbox, t, dir);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Sizes of the list after each drain, from the first sync on. */
    const sizes: number[] = [];
    const sync = (hoursLater: number) => cli(['sync', 'chains', '--full', '--no-progress'], { hoursLater });
    /** A pass in this process, `hours` from now: the chains' result. */
    const pass = async (hours: number, confirmDeletions = false) =>
      (await fullPassLater(t.store, sandbox, ['chains'], hours, { confirmDeletions }))[0]!;
    /** Each step is within the share of what the mirror holds: only the mark tells it is a drain. */
    const step = async () => {
      const before = sizes.at(-1)!;
      sizes.push(await drain('chains'));
      expect(before - sizes.at(-1)!).toBeGreaterThan(0);
      expect(before - sizes.at(-1)!).toBeLessThanOrEqual(0.05 * before);
      return sizes.at(-1)!;
    };

    it('the second small step is held, measured against the size the list was confirmed at', async () => {
      // The list confirmed at its full size by a first pass in this process (the first sync is not what is tested).
      expect((await syncOnce(t.store, sandbox, ['chains'], { settings: { mode: 'full' } })).outcome).toBe('success');
      sizes.push(live('chains'));
      expect(sizes[0]).toBe(50);

      // A first step, within the share of the size the list was confirmed at too: deleted at once.
      const [s0, s1] = [sizes[0]!, await step()];
      const small = await pass(1);
      expect([small.deleted, small.held ?? 0, live('chains')]).toEqual([s0 - s1, 0, s1]);

      // A second: within the share of what the mirror holds, past it measured against the confirmed 50.
      const s2 = await step();
      expect(s0 - s2).toBeGreaterThan(0.05 * s0);
      const held = await sync(2);
      expect(held.code).toBe(4);
      expect(held.stdout).toMatch(
        new RegExp(
          `${s1 - s2} rows of chains held back: the list would be down to ${s2} rows from ${s0} at its last confirmed pass ` +
            `\\(\\S+, or a later one that found it larger\\): ${Math.round((100 * (s0 - s2)) / s0)}% fewer, more than maxDeleteShare, by small steps; ` +
            'deleted when a complete pass from \\S+ finds them missing too',
        ),
      );
      // status --json lists the hold (its text form, the same stored reason: renamed-keys-cli).
      expect([live('chains'), await heldFor('chains'), heldInMirror('chains')]).toEqual([s1, [s1 - s2], [s1 - s2]]);
    });

    // Each test goes on from the mirror the one before left (tests of a file run in order).
    it('each held step is deleted once a pass 6 h after it agrees; the last one confirms the list anew', async () => {
      const [s1, s2] = [sizes[1]!, sizes[2]!];
      // Still draining: both steps held; each is deleted once a pass 6 h after it was first held agrees.
      const s3 = await step();
      expect([(await pass(3)).held, live('chains'), heldInMirror('chains')]).toEqual([s1 - s3, s1, [s1 - s3]]);
      const half = await sync(8.5);
      expect([half.code, half.stdout, live('chains')]).toEqual([
        4,
        expect.stringContaining(`${s1 - s2} rows deleted that a complete pass at least 6 h earlier missed too`),
        s2,
      ]);
      const agreed = await pass(9.5);
      expect([agreed.held ?? 0, live('chains'), heldInMirror('chains')]).toEqual([0, s3, []]);
    });

    it('the mark starts again from the confirmed pass; the operator confirms a held step at once', async () => {
      const confirmedAt = sizes.at(-1)!;
      expect(live('chains')).toBe(confirmedAt);
      const s4 = await step();
      expect([(await pass(10)).held ?? 0, live('chains')]).toEqual([0, s4]);
      const s5 = await step();
      expect(confirmedAt - s5).toBeGreaterThan(0.05 * confirmedAt);
      expect([(await pass(11)).held, live('chains'), heldInMirror('chains')]).toEqual([s4 - s5, s4, [s4 - s5]]);
      // The operator's word (sync --confirm-deletions: the flag's way to the run is renamed-keys-cli's).
      const confirmed = await pass(11.5, true);
      expect([confirmed.held ?? 0, live('chains'), heldInMirror('chains')]).toEqual([0, s5, []]);
      // History holds each deletion once.
      expect(count("select count(*) from v_changes where table_name = 'chains' and change = 'deleted'")).toBe(50 - s5);
    });
  });

  describe(`monitoring events drained, and back upper-cased (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    const count = (query: string) => countWithShellTool(t, query);
    const live = () => count('select count(*) from monitoring_events where deleted_at is null');
    const monitoring = { ...settings().monitoring, details: NO_DETAILS };
    /** A pass in this process, `hours` from now: the events' result. */
    const pass = async (hours: number) => (await fullPassLater(t.store, sandbox, ['monitoring-events'], hours, { monitoring }))[0]!;

    beforeAll(async () => {
      // 0.05: 100 events, each step 4% of them (4, then 4 of 96): the second past the share of the confirmed 100.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.05, seed: 5 });
      t = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
    });

    it('ids back upper-cased wait beside the events they rename, and the honest list forgets them', async () => {
      expect((await syncOnce(t.store, sandbox, ['monitoring-events'], { settings: { mode: 'full', monitoring } })).outcome).toBe('success');
      const events = live();
      expect(events).toBe(sandbox.monitoring.events().length);

      sandbox.setChaos({ lies: { renameIds: { path: '/monitoring/v2/events', how: 'upper' } } });
      expect((await pass(1)).held).toBe(events);
      expect([live(), count('select count(*) from monitoring_events'), count('select count(*) from held_arrivals')]).toEqual([
        events,
        events,
        events,
      ]);
      sandbox.setChaos(null);
      expect([
        (await pass(2)).held ?? 0,
        live(),
        count('select count(*) from held_arrivals'),
        count('select count(*) from v_changes'),
      ]).toEqual([0, events, 0, 0]);
    });

    // Goes on from the mirror the test above left (tests of a file run in order).
    it('a drain past the share of the confirmed size is held until a pass 6 h later agrees', async () => {
      const events = live();
      // 4% of the events, then 4% again: the second step is past the share of the confirmed size.
      await sandbox.advance(EVENTS_DRAIN);
      const once = sandbox.monitoring.events().length;
      expect([(await pass(3)).held ?? 0, live()]).toEqual([0, once]);
      await sandbox.advance(EVENTS_DRAIN);
      const twice = sandbox.monitoring.events().length;
      // Within the share of what the mirror holds, past it measured against the confirmed size.
      expect([once - twice <= 0.05 * once, events - twice > 0.05 * events]).toEqual([true, true]);
      expect([(await pass(4)).held, live()]).toEqual([once - twice, once]);
      expect([(await pass(10.5)).held ?? 0, live()]).toEqual([0, twice]);
    });
  });
}
