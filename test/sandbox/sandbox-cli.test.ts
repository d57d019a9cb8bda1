// `npm run sandbox`: what it prints at start (URL, key, quota, the monitoring views a user names in
// DS_MONITORING_VIEWS), the limits it then enforces, one-line errors with exit 2; and the same views
// on GET /_sandbox/views.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

/** Starts the CLI, collects its start-up lines (to the end of the view list), runs `use`, then stops it. */
async function withCli(args: string[], use: (lines: string[]) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const lines: string[] = [];
    let views = -1;
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      const m = /^monitoring views \((\d+);/.exec(line);
      if (m) views = Number(m[1]);
      const listed = lines.length - lines.findIndex((l) => l.startsWith('monitoring views')) - 1;
      if (views >= 0 && listed >= (views > 25 ? 26 : views)) break; // 25 views, then a "more" line
    }
    await use(lines);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function exitOf(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('npm run sandbox', () => {
  // One start for all it prints (each start of the sandbox's CLI compiles it anew): 30 views, more than it lists.
  it('prints 25 monitoring views (id, slug, name), points at /_sandbox/views for the rest, enforces --quota; without --start the clock is now', async () => {
    const reference = await startSandbox({ start: PINNED_START, scale: 3, seed: 9 });
    const expected = reference.monitoring.views(); // the views are the seed's and the scale's, whatever the start
    await reference.close();
    const before = Math.floor(Date.now() / 1000) * 1000;
    await withCli(['--scale', '3', '--seed', '9', '--quota', 'tokenUnlocks=1/min'], async (lines) => {
      const text = lines.join('\n');
      const clock = Date.parse(/, clock ([^,\s]+)/.exec(text)?.[1] ?? '');
      expect(clock).toBeGreaterThanOrEqual(before);
      expect(clock).toBeLessThanOrEqual(Date.now());
      expect(text).toMatch(/, quota tokenUnlocks=1\/min/);
      expect(expected).toHaveLength(30);
      const start = lines.indexOf('monitoring views (30; DS_MONITORING_VIEWS takes ids or slugs, comma-separated):');
      expect(start).toBeGreaterThan(0);
      expect(lines.slice(start + 1, start + 26)).toEqual(expected.slice(0, 25).map((v) => `  ${v.id}  ${v.slug}  ${v.name}`));
      expect(lines[start + 26]).toBe('  … and 5 more (start with --control to list them): GET /_sandbox/views');
      const url = /listening on (\S+)/.exec(text)![1];
      const key = /API key: (\S+)/.exec(text)![1];
      // The printed id is one the service resolves.
      const view = await fetch(`${url}/monitoring/v2/monitoring-views/${expected[1].id}`, { headers: { 'x-service-api-key': key } });
      expect(((await view.json()) as any).data.name).toBe(expected[1].name);
      const call = () => fetch(`${url}/token-unlocks/v1/assets`, { headers: { 'x-service-api-key': key } }).then((r) => r.status);
      // The sandbox's minute counts on wall time: three quick calls cross at most one minute's edge, so at
      // least one of them is refused however slowly this machine runs them.
      const statuses = [await call(), await call(), await call()];
      expect(statuses[0]).toBe(200);
      expect(statuses).toContain(429);
    });
  }, 120_000);

  it('a bad --quota exits 2 with one line naming it', async () => {
    const { code, stderr } = await exitOf(['--quota', 'v1=many']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toMatch(/^error: option '--quota <spec>' argument 'v1=many' is invalid\. bad quota "v1=many": use /);
  }, 120_000);
});

describe('GET /_sandbox/views', () => {
  it('serves every view id, slug and name, behind the API key', async () => {
    const sb = await startSandbox({ start: PINNED_START, scale: 3, control: true });
    try {
      const res = await fetch(`${sb.url}/_sandbox/views`, { headers: { 'x-api-key': sb.apiKey } });
      expect(res.status).toBe(200);
      const views = (await res.json()) as Array<{ id: string; slug: string; name: string }>;
      expect(views).toHaveLength(30);
      expect(views).toEqual(sb.monitoring.views().map(({ id, slug, name }) => ({ id, slug, name })));
      expect((await fetch(`${sb.url}/_sandbox/views`, { headers: { 'x-api-key': 'wrong' } })).status).toBe(401);
    } finally {
      await sb.close();
    }
  });
});
