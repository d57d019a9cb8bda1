// A user's `sync` killed mid-list: the built CLI syncs against a sandbox whose `/v1/assets` pages from 7
// on get no answer, so it commits the first pages and then waits there until it is killed (SIGKILL).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox/index.js';
import type { TestStore } from './stores.js';
import { LAUNCHER_FLAGS } from './launcher.js';

/** How long the CLI may take to commit its first pages, on a busy machine. */
const COMMIT_DEADLINE_MS = 240_000;

/**
 * Runs `sync <streams>` in the built CLI into `test`'s store until `committed()` says its pages are in,
 * runs `whileHeld` (the CLI still running, mid-list), then kills it and waits for its exit.
 */
export async function killCliSyncMidList(
  test: TestStore,
  sandbox: Sandbox,
  streams: readonly string[],
  committed: () => Promise<boolean>,
  whileHeld: () => Promise<void> = async () => {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-killed-'));
  const config = join(dir, 'config.json');
  const fast = { requestsPerMinute: 1_000_000, concurrency: 4 };
  writeFileSync(config, JSON.stringify({ limits: { v1: fast, open: fast, charts: fast }, pageWindow: 1 }));
  sandbox.setChaos({ hold: { path: '/v1/assets', fromPage: 7 } });
  try {
    const child = spawn(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', 'sync', ...streams, '--no-progress'], {
      env: {
        ...process.env,
        DS_BASE_URL: sandbox.url,
        DS_API_KEY: sandbox.apiKey,
        DS_DB: test.url,
        ...(test.schema ? { DS_DB_SCHEMA: test.schema } : {}),
        DS_CONFIG: config,
        DS_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    let exit: number | null | undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve)).then((code) => {
      exit = code as number | null;
    });
    const deadline = Date.now() + COMMIT_DEADLINE_MS;
    while (!(await committed().catch(() => false))) {
      if (exit !== undefined) throw new Error(`the CLI exited (${exit}) before it committed pages of assets: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`the CLI committed no pages of assets in ${COMMIT_DEADLINE_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await whileHeld();
    child.kill('SIGKILL');
    await exited;
  } finally {
    sandbox.setChaos(null);
    rmSync(dir, { recursive: true, force: true });
  }
}
