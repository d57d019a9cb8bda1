// @end-to-end
// Read-only commands never write, whatever the holds say: a quota hold written by a process whose clock ran
// two hours ahead made `status` and `budget` exit 1 ("attempt to write a readonly database" on SQLite,
// "cannot execute INSERT in a read-only transaction" on PostgreSQL), since reading the hold re-dated it.
// Through the commands a user runs, on both stores; the hold is left as it was written.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageLedger } from '../../src/budget/usage-ledger.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const BIN = resolve('bin/ds-mirror.js');
const HOUR = 3600_000;

async function cli(args: string[], test: TestStore): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DS_DB: test.url, DS_DB_SCHEMA: test.schema ?? '', DS_CONFIG: '', DS_LOG_LEVEL: 'warn' };
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, BIN, ...args], { env, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.each(dialects)('a hold written by a clock ahead, read on %s', (dialect) => {
  let test: TestStore;
  beforeEach(async () => {
    test = await openTestStore(dialect);
  });
  afterEach(() => test?.cleanup());

  it('is shown by status and budget, which exit as they would and write nothing', async () => {
    const ahead = new Date(Date.now() + 2 * HOUR);
    const until = new Date(ahead.getTime() + 20 * 24 * HOUR);
    await new UsageLedger(test.store).hold({ family: 'v1', until, reason: 'Monthly request quota exceeded' }, ahead);
    const row = () => test.store.db.selectFrom('quota_holds').selectAll().executeTakeFirstOrThrow();
    const written = await row();

    const status = await cli(['status'], test);
    expect(status.stderr).not.toMatch(/readonly|read-only/);
    expect(status.code, status.stderr).toBe(0);
    const budget = await cli(['budget'], test);
    expect(budget.stderr).not.toMatch(/readonly|read-only/);
    expect(budget.code, budget.stderr).not.toBe(2);
    expect(budget.stdout).toMatch(/held|holds/);
    expect(await row()).toEqual(written);
  });
});
