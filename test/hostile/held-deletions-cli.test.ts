// @end-to-end
// A held mass deletion as a user meets it (bin/ds-mirror.js in a child process, on both stores): `sync`
// exits 4 and says what it held back, the hold is kept in the mirror (deletion_holds, which `status`
// lists: its text renamed-keys-cli's, its JSON slow-drain-cli's), and `sync --full
// --confirm-deletions` deletes and exits 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { countWithShellTool, mirrorCli, readWithShellTool } from '../helpers/cli-user.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

for (const dialect of dialects) {
  describe(`held deletions on the command line (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;
    let cli: ReturnType<typeof mirrorCli>;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-held-cli-'));
      cli = mirrorCli(sandbox, t, dir);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

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
      // section, the stored reason the run printed above: renamed-keys-cli), read with sqlite3 / psql.
      const live = () => countWithShellTool(t, 'select count(*) from charts where deleted_at is null');
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
