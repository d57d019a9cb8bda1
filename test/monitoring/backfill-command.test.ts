// @end-to-end
// `ds-mirror backfill alerts` end to end: flags and environment in, alert_history out, exit codes and
// one clear line for what the user must fix.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../src/cli/main.js';
import { openStore } from '../../src/store/index.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { sandboxViewAlerts, sandboxViewMatches } from './monitoring-fixtures.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { MIRROR_SCHEMA } from '../../src/mirror-schema/index.js';

let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ start: PINNED_START, scale: 0.2, seed: 9 });
  dir = mkdtempSync(join(tmpdir(), 'ds-mirror-backfill-'));
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A count as a person reads it: 1,234. */
const n = (x: number) => x.toLocaleString('en-US');

async function cli(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (sink: string[]) => ({ write: (s: string) => sink.push(s) > 0, isTTY: false }) as unknown as NodeJS.WriteStream;
  const io: CliIo = {
    stdout: stream(out),
    stderr: stream(err),
    env: { DS_BASE_URL: sb.url, DS_API_KEY: sb.apiKey, DS_DB: `sqlite:${join(dir, 'mirror.db')}`, DS_LOG_LEVEL: 'silent', ...env },
  };
  const code = await main(['node', 'ds-mirror', ...args], io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** `event|development` of the view's alerts, sorted. */
async function history(viewId: string): Promise<string[]> {
  const store = await openStore({ migrations: MIRROR_SCHEMA, url: `sqlite:${join(dir, 'mirror.db')}` });
  try {
    const rows = await store.db.selectFrom('alert_history').select(['event_id', 'development_id']).where('view_id', '=', viewId).execute();
    return rows.map((r) => `${r.event_id}|${r.development_id}`).sort();
  } finally {
    await store.close();
  }
}

describe('ds-mirror backfill alerts', () => {
  it('fills alert_history with the alerts of the views in DS_MONITORING_VIEWS (a slug works too)', async () => {
    // A view with predicates, so that some developments of its matching events raise no alert.
    const restricts = (v: ReturnType<Sandbox['monitoring']['views']>[number]) =>
      v.minimumImportance !== '' ||
      v.verified !== null ||
      v.actionable !== null ||
      v.governance !== null ||
      v.intelSubcategories.length > 0;
    const view = sb.monitoring.views().find((v) => restricts(v) && sandboxViewMatches(sb, v.id).length > 0)!;
    const res = await cli(['backfill', 'alerts'], { DS_MONITORING_VIEWS: view.slug });
    expect(res.code).toBe(0);
    const matches = sandboxViewMatches(sb, view.id);
    const developments = matches.reduce((n, id) => n + sb.monitoring.event(id)!.developments.length, 0);
    const alerts = sandboxViewAlerts(sb, view.id).length;
    expect(alerts).toBeLessThan(developments);
    // Every record read accounted for: the view, each match, and each development of the matches.
    expect(res.stdout).toContain(
      `backfill of 1 view: ${n(matches.length + 1)} records read, 1 view and ${n(matches.length)} matching events; ` +
        `of their ${n(developments)} developments: ${n(alerts)} alerts (${n(alerts)} new, 0 already known), ` +
        `${n(developments - alerts)} not matching the view's predicates;`,
    );
    expect(await history(view.id)).toEqual(sandboxViewAlerts(sb, view.id));
    const again = await cli(['backfill', 'alerts'], { DS_MONITORING_VIEWS: view.slug });
    expect(again.stdout).toContain(`${n(alerts)} alerts (0 new, ${n(alerts)} already known)`);
  });

  it('names an unknown view, still fills the others, and exits 1', async () => {
    const view = sb.monitoring.views()[0]; // not the first test's (it has predicates)
    expect(await history(view.id)).toEqual([]);
    const res = await cli(['backfill', 'alerts', '--view', `no-such-view,${view.id}`]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('unknown monitoring view "no-such-view": check --view');
    expect(res.stderr).not.toContain('DS_MONITORING_VIEWS');
    expect(res.stdout).toContain('backfill of 1 of 2 views');
    expect(await history(view.id)).toEqual(sandboxViewAlerts(sb, view.id));
  });

  it('accounts for the developments read past --since as started before it', async () => {
    const view = sb.monitoring.views()[0];
    const res = await cli(['backfill', 'alerts', '--view', view.id, '--since', '2100-01-01']);
    expect(res.code).toBe(0);
    const found =
      /([\d,]+) records read, 1 view and ([\d,]+) matching events; of their ([\d,]+) developments: 0 alerts \(0 new, 0 already known\), 0 not matching the view's predicates, ([\d,]+) started before 2100-01-01;/.exec(
        res.stdout,
      );
    expect(found, res.stdout).not.toBeNull();
    const [read, matches, developments, before] = found!.slice(1).map((x) => Number(x.replaceAll(',', '')));
    expect([read, before]).toEqual([matches + 1, developments]);
    expect(matches).toBeGreaterThan(0);
  });

  it('refuses an unreadable --since and a run with no view, with exit code 2', async () => {
    const since = await cli(['backfill', 'alerts', '--view', 'x', '--since', 'last week']);
    expect([since.code, since.stderr]).toEqual([2, expect.stringContaining('--since must be RFC 3339')]);
    const none = await cli(['backfill', 'alerts']);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('DS_MONITORING_VIEWS')]);
  });
});
