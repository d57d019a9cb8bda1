// The README's promise: `npm run demo` mirrors the sandbox and lands every signed webhook it sends.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run demo', () => {
  it('mirrors every stream, then lands each webhook delivery once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-demo-'));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/demo.ts'], {
      env: { ...process.env, DS_DB: `sqlite:${join(dir, 'mirror.db')}`, DS_LOG_LEVEL: 'warn' },
      timeout: 540_000, // a busy machine runs it several times slower: generous, not a measure
    }).finally(() => rmSync(dir, { recursive: true, force: true }));
    expect(stdout).toMatch(/first sync \(run \d+\): success/);
    expect(stdout).toMatch(/incremental sync after 6 sandbox hours \(run \d+\): success/);
    const m = /webhooks: (\d+) sent by the sandbox, (\d+) received \((\d+) duplicates\), (\d+) delivery rows/.exec(stdout);
    expect(m).not.toBeNull();
    const [sent, received, duplicates, rows] = m!.slice(1).map(Number);
    expect(sent).toBeGreaterThan(0);
    expect(received).toBe(sent);
    expect(rows).toBe(received - duplicates);
  }, 600_000);
});
