// @end-to-end
// The README's promise: `npm run demo` mirrors the sandbox and lands every signed webhook it sends, in a
// file of its own that holds the sandbox's claim, so the README's next step, a sync against another
// service, cannot damage it. It runs dist/ when built (scripts/demo-start.mjs), so the demo and this test skip
// tsx's loading: ~3.5 of the demo's 7.5 CPU-seconds at this scale.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';

const run = promisify(execFile);

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args], {
      env: { ...process.env, ...env },
      timeout: 300_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const DEMO = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { demo: string } }).scripts.demo;

describe('npm run demo', () => {
  it('mirrors every stream into its own file, lands each webhook once, and a sync against another service refuses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-demo-'));
    const demoDb = join(dir, 'demo.db');
    try {
      // package.json's command as npm runs it, without npm's own start.
      const [node, ...args] = DEMO.split(' ');
      expect(node).toBe('node');
      const { stdout, stderr } = await run(process.execPath, args, {
        // DS_DB names a real mirror: the demo must not touch it.
        // DS_DEMO_SCALE (README): a tenth of the sandbox still sends every stream and webhooks, at well under half the CPU.
        env: { ...process.env, DS_DEMO_SCALE: '0.1', DS_DEMO_DB: demoDb, DS_DB: `sqlite:${join(dir, 'mirror.db')}`, DS_LOG_LEVEL: 'warn' },
        timeout: 540_000, // a busy machine runs it several times slower: generous, not a measure
      });
      // Nothing on stderr: no warning, and no word of falling back to tsx (the build is fresh: `npm test` makes it).
      expect(stderr).toBe('');
      expect(stdout).toMatch(/^sandbox: .* \(scale 0\.1, seed 42\)$/m);
      expect(stdout).toMatch(/first sync \(run \d+\): success/);
      expect(stdout).toMatch(/incremental sync after 6 sandbox hours \(run \d+\): success/);
      const m =
        /webhooks: the sandbox sent ([\d,]+) POSTs, the receiver took ([\d,]+) \(([\d,]+) retries of one it had\): ([\d,]+) distinct delivery ids, ([\d,]+) \(delivery, view\) pairs/.exec(
          stdout,
        );
      expect(m).not.toBeNull();
      const [sent, received, duplicates, ids, pairs] = m!.slice(1).map((v) => Number(v.replaceAll(',', '')));
      // Every alert is counted once, by how it first arrived.
      const a =
        /alerts \(alert_history: one per view and development\): ([\d,]+) in all, ([\d,]+) first arrived by webhook, ([\d,]+) first found/.exec(
          stdout,
        );
      const [alerts, byWebhook, byBackfill] = a!.slice(1).map((v) => Number(v.replaceAll(',', '')));
      expect(byWebhook + byBackfill).toBe(alerts);
      expect(byWebhook).toBeGreaterThan(0);
      // The summaries say what their counts are.
      expect(stdout).toMatch(/^stream\s+records read\s+rows new\s+rows changed\s+rows unchanged\s+rows deleted/m);
      expect(stdout).toMatch(/^records read: what the service sent/m);
      expect(sent).toBeGreaterThan(0);
      expect(received).toBe(sent);
      // One id reaches every view its development matches: a pair each, and only retries are duplicates.
      expect(pairs).toBe(received - duplicates);
      expect(ids).toBeLessThanOrEqual(pairs);
      expect(existsSync(join(dir, 'mirror.db'))).toBe(false);
      // status counts the requests the demo made, from the mirror's usage ledger.
      const status = await cli(['status', '--db', `sqlite:${demoDb}`], { DS_LOG_LEVEL: 'warn' });
      const made = /^Requests this mirror made since \d{4}-\d\d-\d\d \(its usage ledger\): ([\d,]+) \/v1 \(and charts\)/m.exec(
        status.stdout,
      );
      expect(Number(made?.[1]?.replaceAll(',', ''))).toBeGreaterThan(0);

      // The README's next step, pointed (by mistake) at the demo's file, is refused against another service:
      // the demo's file holds its sandbox's claim, read as a user would (sqlite3), and a claimed file refuses
      // another service through the CLI in test/cli/cli.test.ts ('refuses to sync another service...').
      const sandboxUrl = /^sandbox: (\S+) /m.exec(stdout)![1];
      const claim = await run('sqlite3', ['-readonly', demoDb, 'select base_url from mirrored_service']);
      expect(claim.stdout.trim()).toBe(sandboxUrl);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  // The other way in: a checkout whose dist/ is missing or older than src/ runs the TypeScript through tsx, and says so.
  it('tells a missing or stale dist/ from a fresh one, and names what to run', async () => {
    const launcher = '../../scripts/demo-start.mjs'; // plain JavaScript, with no types to check
    const { buildProblem } = (await import(launcher)) as { buildProblem: (root: string) => string | null };
    const root = mkdtempSync(join(tmpdir(), 'ds-mirror-demo-build-'));
    try {
      for (const dir of ['src/cli', 'schema', 'dist/src/bundle']) mkdirSync(join(root, dir), { recursive: true });
      for (const file of ['src/cli/main.ts', 'schema/columns.ts']) writeFileSync(join(root, file), '');
      expect(buildProblem(root)).toMatch(/^dist\/ is not built \(`npm ci` builds it, or `npm run build`\)$/);
      const built = join(root, 'dist/src/bundle/library.mjs');
      writeFileSync(built, '');
      const at = (file: string, seconds: number) => utimesSync(join(root, file), seconds, seconds);
      at('dist/src/bundle/library.mjs', 2_000_000_000);
      at('src/cli/main.ts', 1_999_999_999);
      at('schema/columns.ts', 1_999_999_999);
      expect(buildProblem(root)).toBeNull();
      at('src/cli/main.ts', 2_000_000_001);
      expect(buildProblem(root)).toBe('dist/ is older than src/cli/main.ts (`npm run build` compiles it again)');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
