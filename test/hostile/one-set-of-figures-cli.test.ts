// @end-to-end
// One set of figures, as a user reads them (on both stores; `budget --json` and the daemon spawned from
// bin/ds-mirror.js, `budget` and `sync --plan` by the CLI's main in this process): on one mirror the
// status page, `budget` (text and --json), the daemon's /healthz and `sync --plan` say the same month to
// the request (used, left, scheduled until the renewal, at renewal, to spare), all from month-figures.ts.
// And `--plan` after an interrupted run reads the checkpoint the run resumes from: the page it resumes at
// and the requests the run then really sends. The mirror the figures are read from, and the runs around
// the plan (the one interrupted, the one that resumes), run in this process through the library's door
// (openMirror: the CLI's configuration, preflight, quota gate and ledger, no process); what the CLI says of
// a run stopped at --max-requests is test/cli/cli.test.ts's. One `sync --plan` of both streams serves both
// cases (the interrupted list is keyless, outside the /v1 month the first case reads).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { SyncRequest } from '../../src/index.js';
import { countWithShellTool, mirrorCli, mirrorEnv } from '../helpers/cli-user.js';
import { cliInProcess } from '../helpers/cli-in-process.js';
import { libraryRun as runThroughLibrary } from '../helpers/library-run.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { spawnDaemon } from '../helpers/spawned-daemon.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

interface Month {
  used: number;
  left: number | null;
  scheduled: number;
  atRenewal: number;
  spare: number | null;
}

const num = (s: string) => Number(s.replace(/,/g, ''));

for (const dialect of dialects) {
  describe(`one set of figures on the command line (${dialect})`, () => {
    let sandbox: Sandbox;
    let t: TestStore;
    let dir: string;
    let cli: ReturnType<typeof mirrorCli>;
    /** A run through the library's door, on the configuration the CLI is given: what it did. */
    const libraryRun = (request: SyncRequest) =>
      runThroughLibrary({ config: join(dir, 'config.json'), db: t.url, dbSchema: t.schema }, sandbox, request);
    const v1Sent = () => countWithShellTool(t, "select coalesce(sum(requests), 0) from usage_ledger where family = 'v1'");

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 1, seed: 7 });
      t = await openTestStore(dialect);
      dir = mkdtempSync(join(tmpdir(), 'ds-mirror-figures-'));
      cli = mirrorCli(sandbox, t, dir);
    });
    afterAll(async () => {
      await t?.cleanup();
      await sandbox?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /**
     * `ds-mirror <args>` by the CLI's main in this process, on the configuration the spawned one is given:
     * the same command and output (the process's door: `budget --json` and the daemon here,
     * test/budget/budget-cli's and test/cli/cli's for `budget` and `--plan`).
     */
    const inProcess = (args: string[]) => cliInProcess(args, mirrorEnv(sandbox, t, join(dir, 'config.json')));

    /** The v1 month as `budget --json`, `budget`, `sync --plan`, the status page and /healthz say it. */
    async function everyDoor(url: string) {
      const json = JSON.parse((await cli(['budget', '--json'])).stdout) as { month: (Month & { family: string })[] };
      const text = (await inProcess(['budget'])).stdout;
      const plan = (await inProcess(['sync', 'sectors', 'market-stats', '--plan'])).stdout;
      const page = await (await request(`${url}/status`)).body.text();
      const health = (await (await request(`${url}/healthz`)).body.json()) as { month: (Month & { family: string })[] };
      return { json: json.month.find((m) => m.family === 'v1')!, text, plan, page, health: health.month.find((m) => m.family === 'v1')! };
    }

    /** `sync sectors market-stats --plan` as the first case read it: the second reads its market-stats row. */
    let plan = '';

    it('the status page, budget, /healthz and --plan agree to the request', async () => {
      // One request of /v1 in the month (the figures agree to the request however many there are).
      expect((await libraryRun({ streams: ['sectors'] })).outcome).toBe('success');
      // The keyless market stats interrupted (the second case's plan): the list's size known from a first
      // pass in this process (what is tested starts at the interrupted run), then a run stopped at 2 requests.
      expect((await syncOnce(t.store, sandbox, ['market-stats'])).outcome).toBe('success');
      const stopped = await libraryRun({ streams: ['market-stats'], full: true, maxRequests: 2 });
      expect([stopped.maxRequestsReached, stopped.requests]).toEqual([true, 2]);
      const env = {
        ...process.env,
        DS_BASE_URL: sandbox.url,
        DS_API_KEY: sandbox.apiKey,
        DS_DB: t.url,
        DS_DB_SCHEMA: t.schema ?? '',
        DS_LOG_LEVEL: 'warn',
      };
      const daemon = await spawnDaemon(['--config', join(dir, 'config.json')], env, {
        stopTimeoutS: 10,
        daemonArgs: ['--run-at-start', 'none'],
      });
      try {
        for (let i = 0; i < 200 && (await daemon.probe()) === null; i++) await new Promise((r) => setTimeout(r, 100));
        // A scheduled /v1 run between two reads would move the month: read again until none came between.
        let doors: Awaited<ReturnType<typeof everyDoor>>;
        for (let tries = 0; ; tries++) {
          const before = v1Sent();
          doors = await everyDoor(daemon.url);
          if (v1Sent() === before || tries === 3) break;
        }
        const { json, text, page, health } = doors;
        plan = doors.plan;
        expect(json.used).toBe(v1Sent());
        expect(json.used).toBeGreaterThan(0);
        expect(json.scheduled).toBeGreaterThan(0);
        expect(json).toMatchObject({
          left: 2_500 - json.used,
          atRenewal: json.used + json.scheduled,
          spare: 2_500 - json.used - json.scheduled,
        });
        expect(health).toEqual(json);

        const said =
          /^\/v1 \(and charts\), this month: ([\d,]+) used \+ ~?([\d,]+) scheduled until .* = ([\d,]+) of 2,500 \(([\d,]+) to spare\)$/m.exec(
            text,
          );
        expect(said, text).not.toBeNull();
        expect(said!.slice(1).map(num)).toEqual([json.used, json.scheduled, json.atRenewal, json.spare]);

        const panel = page.slice(page.indexOf('data-family="v1"'));
        const stat = (label: string) =>
          new RegExp(`<span class="label">${label}</span><span class="value">~?([\\d,]+)</span><span class="note">([^<]*)</span>`).exec(
            panel,
          );
        expect(num(stat('this month')![1]!)).toBe(json.used);
        expect(num(stat('at renewal')![1]!)).toBe(json.atRenewal);
        expect(stat('at renewal')![2]).toContain(`${json.spare!.toLocaleString('en-US')} to spare`);

        const left = /^\/v1 \(and charts\): \d+ requests?; quota 2,500\/month, [^,]+, ([\d,]+) left \(([\d,]+) used this month\)$/m.exec(
          plan,
        );
        expect(left, plan).not.toBeNull();
        expect(left!.slice(1).map(num)).toEqual([json.left, json.used]);
        const after =
          /^after this run, the v1 month: ([\d,]+) used \+ (\d+) this run \+ ~?([\d,]+) scheduled until .* = ([\d,]+) of 2,500/m.exec(plan);
        expect(after, plan).not.toBeNull();
        const [used, run, scheduled, total] = after!.slice(1).map(num);
        expect([used, scheduled, total]).toEqual([json.used, json.scheduled, json.atRenewal + run!]);
      } finally {
        daemon.child.kill('SIGTERM');
        await daemon.exited;
      }
    });

    // Goes on from the mirror and the plan the case above left (tests of a file run in order).
    it('--plan after an interrupted run shows the page it resumes at and the requests it then sends', async () => {
      const row =
        /^market-stats\s+(\d+)\s+resumes the interrupted complete pass at page (\d+) \(its checkpoint\).*\(resumes at page (\d+)\)$/m.exec(
          plan,
        );
      expect(row, plan).not.toBeNull();
      expect([row![2], row![3]]).toEqual(['3', '3']);
      expect(plan).toMatch(new RegExp(`^keyless /v1 \\(market stats\\): ${row![1]} requests?; `, 'm'));
      const resumed = await libraryRun({ streams: ['market-stats'] });
      expect(resumed.streams.map((s) => [s.stream, s.outcome, s.requests])).toEqual([['market-stats', 'success', Number(row![1])]]);
      expect(Number(row![1])).toBeGreaterThan(1);
    });
  });
}
