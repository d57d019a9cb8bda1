// @end-to-end
// Silence on success: a sync and `backfill alerts` at the families' own pace (not lifted, so requests wait
// for their slot, as they do against the real service) print no Node warning at all. Before the pacer
// removed its abort listener after each wait, every stream that waited eleven times under one signal
// printed a MaxListenersExceededWarning (10 in one `sync v1` of this sandbox, 276 at the real sizes).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';

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
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, timeout: 170_000, maxBuffer: 1e8 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  // Scale 1: lists of 20 pages and a view of 2,000 matches, enough for a stream to wait on its pace many times.
  sandbox = await startSandbox({ scale: 1, seed: 42, start: PINNED_START });
});
afterAll(() => sandbox?.close());

describe.each(dialects)('a run at the default pace on %s', (dialect) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(dialect);
  });
  afterAll(() => test?.cleanup());

  it('says nothing on stderr: a sync, then a backfill of alerts', async () => {
    const sync = await cli(['sync', 'v1', '--no-progress'], test);
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
