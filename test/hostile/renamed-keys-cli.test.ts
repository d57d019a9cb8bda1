// @end-to-end
// Keys that come back in another case, as a user meets them (bin/ds-mirror.js spawned, on both stores, the
// mirror read with sqlite3 / psql): the sandbox upper-cases every `sectors` slug. The re-cased records never
// sit beside the rows they rename: `sync` exits 4 with one live row per record and says why, `status` lists
// the hold; the honest list again ends the hold and leaves no trace in history; told again six hours after
// it was first told (the child's clock moved), or confirmed by the operator, the re-cased records replace
// the originals and history says exactly that: one deletion per original, no other change. The passes that
// only move the mirror on (the lie told again, the honest list, the agreement, the old case back and the
// operator's word) run in this process with its clock moved (sync-later.ts), their outcome read from the
// result and the mirror: a CLI process for each run whose output is read. What the CLI says of an agreement
// is slow-drain-cli's. On the same mirror, the held mass deletion (a list answered empty): `sync` exits 4
// and says what it held back, the hold is kept in the mirror (deletion_holds, which `status` lists: its
// text the sectors' case's above, its JSON slow-drain-cli's), and `sync --full --confirm-deletions` (the
// flag's way to the run) deletes and exits 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { countWithShellTool, mirrorCli, readWithShellTool } from '../helpers/cli-user.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { fullPassLater } from '../helpers/sync-later.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const UPPER = { lies: { renameIds: { path: '/v1/sectors', how: 'upper' as const, field: 'slug' } } };

for (const dialect of dialects) {
  describe(`held deletions on the command line: sectors' slugs back upper-cased, a list answered empty (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;
    let cli: ReturnType<typeof mirrorCli>;
    const sync = (hoursLater: number) => cli(['sync', 'sectors', '--full', '--no-progress'], { hoursLater });
    const slugs = (where = 'deleted_at is null') => readWithShellTool(t, `select slug from sectors where ${where}`).flat().sort();
    const count = (query: string) => countWithShellTool(t, query);
    const deletions = () => count("select count(*) from v_changes where table_name = 'sectors' and change = 'deleted'");
    const changes = () => count("select count(*) from v_changes where table_name = 'sectors'");
    /** The holds `status` lists, from the table it reads them from (deletion_holds), with sqlite3 / psql: no CLI process. */
    const heldInMirror = () => count("select count(*) from deletion_holds where stream = 'sectors'");
    /** A pass in this process, `hours` from now: sectors' result. */
    const pass = async (hours: number, confirmDeletions = false) =>
      (await fullPassLater(t.store, sandbox, ['sectors'], hours, { confirmDeletions }))[0]!;

    beforeAll(async () => {
      // Sectors are a reference list of 24 at any scale: the smallest sandbox holds them all.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-renamed-cli-'));
      cli = mirrorCli(sandbox, t, dir);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    let original: string[];
    let n: number;

    it('re-cased slugs wait beside the rows they rename: exit 4, held again when told again, one live row per record', async () => {
      // The mirror before the lie, synced in this process (the first sync is not what is tested).
      expect((await syncOnce(t.store, sandbox, ['sectors'], { settings: { mode: 'full' } })).outcome).toBe('success');
      original = slugs();
      n = original.length;
      expect(n).toBe(sandbox.records('sectors').length);
      expect(n).toBeGreaterThan(10);
      expect(original.every((s) => s === s.toLowerCase())).toBe(true);

      // Told: the run exits 4, one live row per record, nothing in history.
      sandbox.setChaos(UPPER);
      const told = await sync(1);
      expect(told.code).toBe(4);
      expect(told.stdout).toMatch(
        new RegExp(
          `${n} rows of sectors held back: ${n} records came back under keys that differ only in case or spacing \\("\\S+" came back as "[A-Z0-9-]+"\\); ` +
            'they wait in held_arrivals and replace the rows they rename only when that is confirmed; deleted when a complete pass from \\S+ finds them missing too',
        ),
      );
      expect(told.stdout).toMatch(new RegExp(`^deletions held back: ${n} rows of sectors`, 'm'));
      const held = () => [
        slugs(),
        count('select count(*) from sectors'),
        changes(),
        count("select count(*) from held_arrivals where stream = 'sectors'"),
      ];
      expect(held()).toEqual([original, n, 0, n]);
      // Told again an hour later (in this process): still held, still one live row per record, none waiting twice.
      expect((await pass(2)).held).toBe(n);
      expect(held()).toEqual([original, n, 0, n]);
      // status lists the hold (status --json lists a hold's rows too: slow-drain-cli, from the same deletion_holds).
      const status = await cli(['status']);
      expect(status.stdout).toMatch(
        /^Deletions held back \(rows kept live\):\n- sectors, \S+: \d+ rows of sectors held back: \d+ records came back/m,
      );
      expect(heldInMirror()).toBe(1); // the row status read: read there, without a CLI process, from here on
    });

    // Each test goes on from the mirror the one before left (tests of a file run in order).
    it('the honest list again forgets the re-cased records', async () => {
      // The honest list again: the hold ends, the waiting records are forgotten, history never heard of them.
      sandbox.setChaos(null);
      const honest = await pass(3);
      expect([honest.outcome, honest.held ?? 0, honest.deleted]).toEqual(['success', 0, 0]);
      expect([slugs(), count('select count(*) from sectors'), changes(), count('select count(*) from held_arrivals')]).toEqual([
        original,
        n,
        0,
        0,
      ]);
      expect(heldInMirror()).toBe(0);
    });

    it('told again 6 h after it was first told, or confirmed, the re-cased records replace the originals', async () => {
      // Told at 4 h (in this process) and again at 10.5 h (6 h later): the re-cased records replace the originals.
      sandbox.setChaos(UPPER);
      expect((await pass(4)).held).toBe(n);
      const agreed = await pass(10.5);
      expect([agreed.outcome, agreed.held ?? 0, agreed.deleted]).toEqual(['success', 0, n]);
      expect(slugs()).toEqual(original.map((s) => s.toUpperCase()).sort());
      expect([slugs('deleted_at is not null'), deletions(), changes()]).toEqual([original, n, n]);
      expect([count('select count(*) from held_arrivals'), heldInMirror()]).toEqual([0, 0]);

      // The old case back: it waits in turn; the operator's word restores the original rows at once.
      sandbox.setChaos(null);
      expect([(await pass(11)).held, slugs()]).toEqual([n, original.map((s) => s.toUpperCase()).sort()]);
      const confirmed = await pass(11.5, true);
      expect([confirmed.outcome, confirmed.held ?? 0]).toEqual(['success', 0]);
      expect([slugs(), count('select count(*) from sectors where deleted_at is null'), deletions()]).toEqual([original, n, 2 * n]);
      expect([count('select count(*) from held_arrivals'), heldInMirror()]).toEqual([0, 0]);
    });

    // The sectors' runs above leave no hold: the charts' is the only one in deletion_holds.
    it('a list answered empty: exit 4, the hold in status, and --confirm-deletions deletes', async () => {
      // The list mirrored by a first pass in this process (the first sync is not what is tested).
      expect((await syncOnce(t.store, sandbox, ['charts'], { settings: { mode: 'full' } })).outcome).toBe('success');
      const charts = sandbox.records('charts').length;
      expect(charts).toBeGreaterThan(1);

      sandbox.setChaos({ lies: { empty: { path: '/v1/charts' } } });
      const held = await cli(['sync', 'charts', '--full', '--no-progress']);
      expect(held.code).toBe(4);
      expect(held.stdout).toMatch(
        new RegExp(`success: ${charts} rows of charts held back: the pass was not served ${charts} of ${charts} rows`),
      );
      expect(held.stdout).toMatch(
        new RegExp(`^deletions held back: ${charts} rows of charts \\(see above and \`ds-mirror status\`\\)$`, 'm'),
      );

      // The hold in the table `status` lists (a hold's rows in `status --json`: slow-drain-cli; its text
      // section, the stored reason the run printed above: the sectors' case), read with sqlite3 / psql.
      const live = () => count('select count(*) from charts where deleted_at is null');
      const holds = () => readWithShellTool(t, 'select stream, variant, held_rows from deletion_holds');
      expect([live(), holds()]).toEqual([charts, [['charts', '', String(charts)]]]);

      const confirmed = await cli(['sync', 'charts', '--full', '--no-progress', '--confirm-deletions']);
      expect(confirmed.code).toBe(0);
      expect(confirmed.stdout).not.toMatch(/held back/);
      // No rows live, no hold.
      expect([live(), holds()]).toEqual([0, []]);
      sandbox.setChaos(null);
    });
  });
}
