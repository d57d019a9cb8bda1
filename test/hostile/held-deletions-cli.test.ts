// @end-to-end
// A held mass deletion as a user meets it (bin/ds-mirror.js in a child process, on both stores): `sync`
// exits 4 and says what it held back, `status` lists the hold (table and JSON), and `sync --full
// --confirm-deletions` deletes and exits 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { mirrorCli } from '../helpers/cli-user.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

for (const dialect of dialects) {
  describe(`held deletions on the command line (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;
    let cli: ReturnType<typeof mirrorCli>;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 1, seed: 7 });
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
      const first = await cli(['sync', 'charts', '--full', '--no-progress']);
      expect([first.code, first.stderr]).toEqual([0, '']);
      const charts = sandbox.records('charts').length;

      sandbox.setChaos({ lies: { empty: { path: '/v1/charts' } } });
      const held = await cli(['sync', 'charts', '--full', '--no-progress']);
      expect(held.code).toBe(4);
      expect(held.stdout).toMatch(
        new RegExp(`success: ${charts} rows of charts held back: the pass was not served ${charts} of ${charts} rows`),
      );
      expect(held.stdout).toMatch(
        new RegExp(`^deletions held back: ${charts} rows of charts \\(see above and \`ds-mirror status\`\\)$`, 'm'),
      );

      const status = await cli(['status']);
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/^Deletions held back \(rows kept live\):\n- charts, \S+: \d+ rows of charts held back/m);
      const json = JSON.parse((await cli(['status', '--json'])).stdout) as { stream: string; rows: number; heldDeletions: unknown[] }[];
      const row = json.find((r) => r.stream === 'charts')!;
      expect([row.rows, row.heldDeletions]).toEqual([charts, [expect.objectContaining({ variant: '', rows: charts })]]);

      const confirmed = await cli(['sync', 'charts', '--full', '--no-progress', '--confirm-deletions']);
      expect(confirmed.code).toBe(0);
      expect(confirmed.stdout).not.toMatch(/held back/);
      const after = JSON.parse((await cli(['status', '--json'])).stdout) as { stream: string; rows: number; heldDeletions: unknown[] }[];
      expect(after.find((r) => r.stream === 'charts')).toMatchObject({ rows: 0, heldDeletions: [] });
      sandbox.setChaos(null);
    });
  });
}
