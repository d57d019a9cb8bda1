// @end-to-end
// Silence on success: a sync and `backfill alerts` at the families' own pace (not lifted, so requests wait
// for their slot, as they do against the real service) print no Node warning at all. Before the pacer
// removed its abort listener after each wait, every stream that waited eleven times under one signal
// printed a MaxListenersExceededWarning (10 in one `sync v1` of this sandbox, 276 at the real sizes).
// The sync is of assets alone, the stream that waits more than eleven times: the other /v1 lists take a
// page or three each, and a whole `sync v1` says nothing on stderr in test/cli/plain-sync.test.ts.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const BIN = resolve('bin/ds-mirror.js');
let sandbox: Sandbox;

async function cli(args: string[], test: TestStore): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_DB: test.url,
    DS_DB_SCHEMA: test.schema ?? '',
    DS_CONFIG: '',
    DS_LOG_LEVEL: 'warn',
    DS_MONITORING_VIEWS: sandbox.monitoring.views()[0]!.id,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], { env, timeout: 170_000, maxBuffer: 1e8 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  // Scale 0.6: assets in 17 requests and a view of 1,200 matches in 14, more than the 11 waits under one
  // signal that made Node warn (scale 1, 20 and 20, costs twice the CPU for nothing more).
  sandbox = await startSandbox({ scale: 0.6, seed: 42, start: PINNED_START });
});
afterAll(() => sandbox?.close());

// The two stores side by side: most of each run's time is its pace's waits, not CPU.
describe.concurrent.each(dialects)('a run at the default pace on %s', (dialect) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(dialect);
  });
  afterAll(() => test?.cleanup());

  it('says nothing on stderr: a sync, then a backfill of alerts', async ({ expect }) => {
    const sync = await cli(['sync', 'assets', '--no-progress'], test);
    expect(sync.stdout).toMatch(/^run \d+: success, [\d,]+ requests sent/m);
    // Many requests of one stream under one signal: the case that leaked a listener per wait.
    expect(Number(/^assets\s+(?:\S+\s+){6}(\d+)/m.exec(sync.stdout)?.[1])).toBeGreaterThan(11);
    expect(sync.stderr).not.toMatch(/Warning/);
    expect([sync.code, sync.stderr]).toEqual([0, '']);

    const backfill = await cli(['backfill', 'alerts'], test);
    expect(backfill.stdout).toMatch(/^backfill of 1 view: /m);
    expect(Number(/(\d+) requests?\n?$/.exec(backfill.stdout)?.[1])).toBeGreaterThan(11);
    expect([backfill.code, backfill.stderr]).toEqual([0, '']);
  });
});
