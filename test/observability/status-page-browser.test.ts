// @end-to-end
// The status page in a real browser: Debian's chromium, driven by playwright-core, opens the page of a
// real daemon over a mirror synced from the loopback sandbox, on both stores. Every section shows real
// figures, the charts are drawn, nothing logs an error, a view name that is markup stays text, a phone's
// width does not scroll sideways, and `status --html` writes the same page to a file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { quotaGate, UsageLedger } from '../../src/budget/index.js';
import { configureJobs } from '../../src/scheduler/index.js';
import { startDaemon } from '../../src/mirror/daemon.js';
import { jobDefinitions } from '../../src/scheduler/job-files.js';
import { resolveStreams } from '../../src/catalog/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { LAUNCHER_FLAGS } from '../helpers/launcher.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

const run = promisify(execFile);
const INJECTED = '<img src=x onerror=alert(1)>';
const SYNCED = ['glossary', 'chains', 'sectors', 'token-unlocks', 'monitoring-categories'];
let sandbox: Sandbox;
let browser: Browser;
/**
 * One tab for every page of the file, as a person reloading it would: each new tab is a renderer started
 * anew (about twice a navigation's CPU in the browser). Each case begins at the desktop's width.
 */
let page: Page;
let seen: Seen;
let pages: string;
// The pages as pictures, for a person to look at (nothing asserts on them): DS_TEST_SCREENSHOTS=<folder>.
// A full-page PNG is a second render and an encoding in the browser, four of them most of its CPU here.
const shots = process.env.DS_TEST_SCREENSHOTS;
const screenshot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
};
// `status --html` through a process on SQLite; on PostgreSQL main() in this process writes the page (the
// same command and page, the store the only difference).
async function statusHtml(test: TestStore, dialect: string, file: string): Promise<void> {
  const env = { ...process.env, DS_DB: test.url, DS_LOG_LEVEL: 'warn', DS_CONFIG: '', DS_DB_SCHEMA: test.schema ?? '' };
  if (dialect === 'sqlite') {
    await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', 'status', '--html', file], { env, timeout: 120_000 });
    return;
  }
  const out = await cliInProcess(['status', '--html', file], env);
  expect([out.code, out.stderr]).toEqual([0, '']);
}

beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.2 });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: DESKTOP });
  seen = watch(page);
  pages = mkdtempSync(join(tmpdir(), 'ds-mirror-status-page-'));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  if (pages) rmSync(pages, { recursive: true, force: true });
});

/** A synced mirror with usage earlier this month, a hold, a quarantined record and 30 days of alerts. */
async function syncedMirror(store: Store, now: Date): Promise<void> {
  const client = fastClient(sandbox, { gate: quotaGate(store) });
  try {
    await runSync({ client, store, logger: silent, settings: settings(), streams: resolveStreams(SYNCED), job: 'daily-catalog' });
  } finally {
    await client.close();
  }
  const ledger = new UsageLedger(store);
  for (let day = 1; day < now.getUTCDate(); day++) {
    await ledger.reserve(
      'v1',
      20 + ((day * 37) % 60),
      { perMonth: 2500 },
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), day, 12)),
    );
  }
  await ledger.hold({ family: 'tokenUnlocks', until: new Date(now.getTime() + 2 * 86_400_000), reason: 'monthly allowance spent' }, now);
  await store.db
    .insertInto('quarantine')
    .values({ stream: 'glossary', reason: 'missing key "id"', record: '{"<b>":1}', seen_at: now.toISOString() })
    .execute();
  const alerts = [];
  for (let back = 0; back < 30; back++) {
    const at = new Date(now.getTime() - back * 86_400_000).toISOString();
    for (let i = 0; i < (back * 7) % 5; i++) {
      const how = (back + i) % 3;
      alerts.push({
        view_id: back % 2 === 0 ? 'view-whales' : 'view-injected',
        view_name: back % 2 === 0 ? 'Whale transfers' : INJECTED,
        event_id: `event-${back}-${i}`,
        development_id: '',
        matched_at: at,
        first_seen_at: at,
        source: how === 1 ? ('backfill' as const) : ('webhook' as const),
        webhook_at: how === 1 ? null : at,
        backfill_at: how === 0 ? null : at,
      });
    }
  }
  await store.db.insertInto('alert_history').values(alerts).execute();
}

interface Seen {
  errors: string[];
  dialogs: string[];
}
const DESKTOP = { width: 1280, height: 900 };

/** The shared tab at the desktop's width, with nothing seen yet. */
async function freshTab(): Promise<Page> {
  await page.setViewportSize(DESKTOP);
  seen.errors.length = 0;
  seen.dialogs.length = 0;
  return page;
}

function watch(page: Page): Seen {
  const seen: Seen = { errors: [], dialogs: [] };
  page.on('console', (m) => (m.type() === 'error' ? seen.errors.push(m.text()) : undefined));
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('requestfailed', (r) => seen.errors.push(`request failed: ${r.url()}`));
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  return seen;
}

/** What every page must show, served or written. */
async function checkSections(page: Page): Promise<void> {
  for (const id of ['summary', 'streams', 'budget', 'runs', 'alerts', 'jobs']) expect(await page.locator(`#${id}`).count(), id).toBe(1);
  const glossary = page.locator('#streams tr[data-stream="glossary"]');
  expect(Number((await glossary.locator('td.num').first().innerText()).replace(/,/g, ''))).toBeGreaterThan(0);
  expect(await glossary.locator('.badge').innerText()).toBe('fresh');
  expect(await glossary.locator('td.num').nth(1).innerText()).toBe('1');
  const v1 = page.locator('#budget [data-family="v1"]');
  expect(await v1.locator('.stat .value').first().innerText()).toMatch(/^[1-9][\d,]*$/);
  expect(await page.locator('#budget [data-family="tokenUnlocks"] .hold').innerText()).toContain('monthly allowance spent');
  // The test's own run; a scheduled job of the daemon may have run after it (its crons follow the wall clock).
  const run = page.locator('#runs tbody tr', { hasText: 'daily-catalog' }).first();
  expect(await run.count()).toBe(1);
  expect(await run.locator('.badge').innerText()).toBe('success');
  expect(await page.locator('#jobs tr[data-job="daily-catalog"]').innerText()).toMatch(/in \d+ (s|min|h)/);
  expect(await page.locator('#alerts .view').count()).toBe(2);
  // The view named as markup is shown as its text, and made no element.
  expect(await page.locator('#alerts [data-view="view-injected"] .view-name').innerText()).toBe(INJECTED);
  expect(await page.locator('img').count()).toBe(0);
  // Every chart is drawn: each SVG has a size, and the charts with figures have bars with a size.
  const charts = await page.locator('svg').evaluateAll((svgs) =>
    svgs.map((s) => {
      const box = s.getBoundingClientRect();
      const sized = (e: { getBoundingClientRect(): { width: number; height: number } }) =>
        e.getBoundingClientRect().width > 0 && e.getBoundingClientRect().height > 0;
      const owner = s.closest('[data-family], [data-view]');
      return {
        of: owner?.getAttribute('data-family') ?? owner?.getAttribute('data-view'),
        width: box.width,
        height: box.height,
        bars: [...s.querySelectorAll('rect')].filter(sized).length,
        lines: [...s.querySelectorAll('line')].length,
      };
    }),
  );
  expect(charts.length).toBeGreaterThanOrEqual(4);
  for (const c of charts) expect(c.width > 0 && c.height > 0 && c.lines > 0, JSON.stringify(c)).toBe(true);
  const drawn = (of: string) => charts.find((c) => c.of === of)?.bars ?? 0;
  expect(drawn('v1')).toBeGreaterThanOrEqual(2);
  expect(drawn('tokenUnlocks')).toBeGreaterThan(0);
  expect(drawn('view-whales')).toBeGreaterThan(5);
  expect(drawn('view-injected')).toBeGreaterThan(5);
}

async function checkPhone(page: Page, url: string, name: string): Promise<void> {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(url);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await screenshot(page, `${name}-phone`);
}

describe.each(dialects)('the status page on %s', (dialect) => {
  let test: TestStore;
  afterAll(async () => test?.cleanup());

  it('shows every section of a daemon over a synced mirror, in a browser', async () => {
    test = await openTestStore(dialect);
    const now = new Date();
    await syncedMirror(test.store, now);
    const client = fastClient(sandbox);
    const daemon = await startDaemon({
      store: test.store,
      client,
      logger: silent,
      settings: settings(),
      jobs: configureJobs(jobDefinitions(), {}, 'UTC'),
      http: { port: 0, host: '127.0.0.1' },
      startupRun: 'none',
    });
    const page = await freshTab();
    try {
      const response = await page.goto(`${daemon.url}/status`);
      expect(response?.status()).toBe(200);
      expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(1);
      await checkSections(page);
      await screenshot(page, `${dialect}-daemon`);
      await checkPhone(page, `${daemon.url}/status`, `${dialect}-daemon`);
      expect(seen).toEqual({ errors: [], dialogs: [] });
    } finally {
      await page.goto('about:blank'); // the served page's refresh ends with its daemon
      await daemon.stop();
      await client.close();
    }
    if (shots) console.log(`status page screenshots: ${shots}`);
  }, 240_000);

  it('is written by `status --html` for a mirror with no daemon', async () => {
    const file = join(pages, `${dialect}-status.html`);
    await statusHtml(test, dialect, file);
    const page = await freshTab();
    await page.goto(`file://${file}`);
    await checkSections(page);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    // A phone's width: the served page's case above (the same page, less its refresh).
    expect(seen).toEqual({ errors: [], dialogs: [] });
  }, 240_000);
});
