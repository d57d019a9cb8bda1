// @end-to-end
// The service changes its shape under the token-unlocks list, and the operator's contracts decide, as a user
// meets it (bin/ds-mirror.js in a child process, the sandbox's chaos `shape`, the mirror read with sqlite3 or
// psql), on both stores. Token unlocks (one run): a new field, a number as text and an ISO time as Unix
// seconds are reported and taken without loss; a typed field gone from every record, or renamed, keeps the
// rows as they were (exit 4) and ends its hold when it returns; the key gone fails the stream (exit 5) with no deletion
// held. Contracts: `fail` fails the stream at the first change with DS_DRIFT, recorded where runs are
// (sync_run_streams.error_code) and said by `status` and the status page (both run by the CLI's main in this
// process); `accept` writes what comes and reports it.
// The mirror before the changes is synced once, in this process; a CLI run that fails token unlocks' key
// also fails the assets' contract (a run judges its streams one by one, and each outcome is read from its
// summary and the mirror). The runs whose outcome is read from the result and the mirror (the contract
// accept, the old shape back) run in this process too: the summary's line of a change taken is
// schema-changes-cli's.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { type CliResult, mirrorCli, mirrorEnv, readWithShellTool } from '../helpers/cli-user.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

const UNLOCKS = '/token-unlocks/v1/assets';
const UNLOCK_COLUMNS = ['symbol', 'serial_id', 'genesis_date', 'projected_end_date'] as const;
const ASSET_COLUMNS = ['title', 'price_usd', 'updated_at'] as const;

for (const dialect of dialects) {
  describe(`contracts and token unlocks under a changing service (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;

    const cli = (args: string[], settings: Record<string, unknown> = {}): Promise<CliResult> =>
      mirrorCli(sandbox, t, dir, settings)(args[0] === 'sync' ? [...args, '--no-progress'] : args);
    /** `ds-mirror <args>` on this mirror, no configuration file, run by the CLI's main in this process. */
    const statusInProcess = (args: string[]): Promise<CliResult> => cliInProcess(args, mirrorEnv(sandbox, t));

    /** Non-null values of each column of a view, as sqlite3 or psql reads them. */
    function typed(view: string, columns: readonly string[]): Record<string, number> {
      const [row] = readWithShellTool(t, `select ${columns.map((c) => `count(${c})`).join(', ')} from ${view}`);
      return Object.fromEntries(columns.map((c, i) => [c, Number(row![i])]));
    }

    /** The stream's changes as `path kind seen outcome`, read as a user would. */
    function changes(stream: string): string[] {
      return readWithShellTool(
        t,
        `select path, kind, seen_type, outcome from v_schema_changes where stream = '${stream}' order by path, kind, seen_type`,
      ).map((r) => r.filter((v) => v !== '').join(' '));
    }

    /** What the mirror held before the service changed: the typed values every case below keeps. */
    let unlocksBefore: Record<string, number>;
    let assetsBefore: Record<string, number>;

    beforeAll(async () => {
      // 0.1: 30 token unlocks and 200 assets (two pages): every change below is judged on a page, at a tenth of the cost.
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 9 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-contracts-cli-'));
      const first = await syncOnce(t.store, sandbox, ['token-unlocks', 'assets'], { settings: { mode: 'full' } });
      expect(first.streams.map((s) => s.outcome)).toEqual(['success', 'success']);
      unlocksBefore = typed('v_token_unlocks', UNLOCK_COLUMNS);
      expect(unlocksBefore.genesis_date).toBeGreaterThan(0);
      assetsBefore = typed('v_assets', ASSET_COLUMNS);
      expect(assetsBefore.price_usd).toBeGreaterThan(0);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    // One run changes token unlocks' shape both ways (a run judges each change of a stream on its own):
    // the changes taken without loss are reported and coerced as in a run with only them (exit 0 for such
    // a run: schema-changes-cli's fan-out and details), the fields gone keep the rows as they were (exit 4).
    it('token unlocks: a new field, a number as text, an ISO time as Unix seconds reported and taken; a typed field removed and another renamed: rows kept as they were (exit 4)', async () => {
      sandbox.setChaos({
        shape: [
          { path: UNLOCKS, kind: 'add', field: 'unlockCadence', value: 'monthly' },
          { path: UNLOCKS, kind: 'numberAsString', field: 'serialId' },
          { path: UNLOCKS, kind: 'isoAsUnix', field: 'genesisDate' },
          { path: UNLOCKS, kind: 'remove', field: 'projectedEndDate' },
          { path: UNLOCKS, kind: 'rename', field: 'symbol', to: 'ticker' },
        ],
      });
      const held = await cli(['sync', 'token-unlocks', '--full']);
      sandbox.setChaos(null);
      expect([held.code, held.stderr]).toEqual([4, '']);
      // The summary's row says the held first, then the coerced, then how many more (the new fields: below).
      expect(held.stdout).toMatch(
        /the service changed shape: (symbol|projectedEndDate) missing in \d+ records \(held\), (symbol|projectedEndDate) missing in \d+ records \(held\), .*serialId came as string in \d+ records \(coerced\).* and 2 more \(ds-mirror schema --changes\)$/m,
      );
      expect(held.stdout).toMatch(/^rows kept as they were: \d+ rows of token-unlocks came without a field they hold/m);
      expect(typed('v_token_unlocks', UNLOCK_COLUMNS)).toEqual(unlocksBefore);
      expect(changes('token-unlocks')).toEqual([
        'genesisDate other type number coerced',
        'projectedEndDate missing held',
        'serialId other type string coerced',
        'symbol missing held',
        'ticker new string reported',
        'unlockCadence new string reported',
      ]);
    });

    it("token unlocks' key gone, and the assets' contract fail at the first change: exit 5 naming each, DS_DRIFT recorded with the run, nothing written", async () => {
      sandbox.setChaos({
        shape: [
          { path: UNLOCKS, kind: 'remove', field: 'id' },
          { path: '/v1/assets', kind: 'numberAsString', field: 'price.usd' },
        ],
      });
      const failed = await cli(['sync', 'token-unlocks', 'assets', '--full'], { schemaChanges: { streams: { assets: 'fail' } } });
      sandbox.setChaos(null);
      expect(failed.code).toBe(5);
      expect(failed.stdout).toMatch(
        /token-unlocks: required field "id" missing in \d+ of \d+ records of a page: the service changed shape/,
      );
      expect(failed.stdout).toMatch(
        /assets: field "price\.usd" came as string where the mirror keeps number \(e\.g\. "[\d.]+"\), and the stream's contract is fail/,
      );
      expect(failed.stdout).not.toMatch(/held back/);
      expect(typed('v_token_unlocks', UNLOCK_COLUMNS)).toEqual(unlocksBefore);
      expect(readWithShellTool(t, 'select count(*) from held_deletions')).toEqual([['0']]);
      expect(typed('v_assets', ASSET_COLUMNS)).toEqual(assetsBefore);
      expect(changes('assets')).toEqual(['price.usd other type string failed']);
      const [run] = readWithShellTool(
        t,
        "select outcome, error_code from sync_run_streams where stream = 'assets' order by run_id desc limit 1",
      );
      expect(run).toEqual(['failed', 'DS_DRIFT']);
      // `status` says the code from its row's lastErrorCode (the row `status --json` prints as it is). It and
      // the status page run in this process (the CLI's main: the same command and output; what is read is
      // the row the run left, the process's door status-page-browser's and renamed-keys-cli's).
      const status = await statusInProcess(['status']);
      expect(status.stdout).toMatch(/the service changed shape \(DS_DRIFT\): assets: field "price\.usd" came as string/);
      // The status page says it too, in the stream's row.
      const page = join(dir, 'status.html');
      expect((await statusInProcess(['status', '--html', page])).code).toBe(0);
      const row = /<tr data-stream="assets">[\s\S]*?<\/tr>/.exec(readFileSync(page, 'utf8'))?.[0] ?? '';
      expect(row).toMatch(
        /<span class="code" data-error-code="DS_DRIFT">the service changed shape \(DS_DRIFT\)<\/span>: assets: field &quot;price\.usd&quot; came as string/,
      );
    });

    it('contract accept: what comes is written as it came and reported (success)', async () => {
      sandbox.setChaos({
        shape: [
          { path: '/v1/assets', kind: 'add', field: 'risk_score', value: 0.5 },
          { path: '/v1/assets', kind: 'numberAsString', field: 'price.usd' },
        ],
      });
      const accepted = await syncOnce(t.store, sandbox, ['assets'], { settings: { mode: 'full', schemaChanges: { default: 'accept' } } });
      sandbox.setChaos(null);
      expect(accepted.streams.map((r) => r.outcome)).toEqual(['success']);
      expect(changes('assets')).toEqual(['price.usd other type string accepted', 'risk_score new number reported']);
      // Written as it came: every live row's record holds the new field, and the price as text.
      const sqlite = t.url.startsWith('sqlite:');
      const [raw] = readWithShellTool(
        t,
        sqlite
          ? "select count(*), sum(json_extract(raw, '$.risk_score') = 0.5), sum(json_type(raw, '$.price.usd') = 'text') from assets where deleted_at is null"
          : "select count(*), sum(((raw->>'risk_score')::numeric = 0.5)::int), sum((jsonb_typeof(raw->'price'->'usd') = 'string')::int) from assets where deleted_at is null",
      );
      expect(Number(raw![1])).toBe(Number(raw![0]));
      expect(Number(raw![2])).toBe(assetsBefore.price_usd);
    });

    it('the old shape back: token unlocks end their holds and the default contract takes the assets back (success)', async () => {
      const back = await syncOnce(t.store, sandbox, ['token-unlocks', 'assets'], { settings: { mode: 'full' } });
      expect(back.streams.map((r) => [r.stream, r.outcome, r.heldRows ?? 0])).toEqual([
        ['assets', 'success', 0],
        ['token-unlocks', 'success', 0],
      ]);
      expect(typed('v_token_unlocks', UNLOCK_COLUMNS)).toEqual(unlocksBefore);
      expect(typed('v_assets', ASSET_COLUMNS)).toEqual(assetsBefore);
      // Each change once: the holds ended, and the field the rename brought is gone again (reported).
      expect(changes('token-unlocks')).toEqual([
        'genesisDate other type number coerced',
        'id missing failed',
        'projectedEndDate missing returned',
        'serialId other type string coerced',
        'symbol missing returned',
        'ticker missing reported',
        'ticker new string reported',
        'unlockCadence missing reported',
        'unlockCadence new string reported',
      ]);
    });
  });
}
