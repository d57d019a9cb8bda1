// @end-to-end
// An empty `DS_API_KEY=` (a .env line left blank) is unset, as every DS_ variable is: the key of
// "apiKeyFile" is sent, as a user who configured the file expects; with no file, one line says what to set.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);
const BIN = resolve('bin/ds-mirror.js');

describe('an empty DS_API_KEY', () => {
  let sandbox: Sandbox;
  let dir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ start: PINNED_START, scale: 1, seed: 7 });
    dir = mkdtempSync(join(tmpdir(), 'ds-mirror-empty-key-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = async (config: object) => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const env = {
      ...process.env,
      DS_API_KEY: '',
      DS_BASE_URL: sandbox.url,
      DS_DB: `sqlite:${join(dir, 'mirror.db')}`,
      DS_CONFIG: join(dir, 'config.json'),
      DS_LOG_LEVEL: 'error',
    };
    try {
      const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, BIN, 'sync', 'sectors', '--no-progress'], {
        env,
        timeout: 120_000,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      return error as { code: number; stdout: string; stderr: string };
    }
  };

  it('leaves the key of apiKeyFile in force', async () => {
    writeFileSync(join(dir, 'key'), `${sandbox.apiKey}\n`);
    const synced = await cli({ apiKeyFile: join(dir, 'key') });
    expect([synced.code, synced.stderr]).toEqual([0, '']);
    expect(synced.stdout).toMatch(/^sectors\s+\d+\s+\d+/m);
  });

  it('with no file, says in one line what to set', async () => {
    const refused = await cli({});
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toMatch(/no API key: set DS_API_KEY \(or "apiKeyFile" in the config file\)$/);
  });
});
