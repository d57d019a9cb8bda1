// `npm run demo`: the whole product on one machine with no API key. Starts the sandbox, mirrors it into
// a file of the demo's own (data/demo.db, made afresh each time: never the real mirror, data/mirror.db),
// starts the webhook receiver, lets the sandbox's clock run so new developments are POSTed (signed) to
// the receiver, syncs again incrementally, and prints what landed. It writes through the same library
// guard as the CLI: a file that holds another service (DS_DEMO_DB pointed at a real mirror) is refused.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { startSandbox } from '../sandbox/index.js';
import { runSummary, SUMMARY_LEGEND } from '../src/cli/run-summary.js';
import type { Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { openMirror, type SyncReport, type SyncRun } from '../src/mirror/index.js';
import { startReceiver } from '../src/receiver/index.js';

const DEFAULT_DB = 'data/demo.db';
const DB = `sqlite:${process.env.DS_DEMO_DB ?? DEFAULT_DB}`;
const logger = createLogger(process.env.DS_LOG_LEVEL ?? 'warn');
const say = (line = '') => process.stdout.write(`${line}\n`);

mkdirSync('data', { recursive: true });
// The default demo file is the demo's alone: each run starts it afresh (its sandbox listens on a new port).
if (!process.env.DS_DEMO_DB) for (const suffix of ['', '-wal', '-shm']) rmSync(`${DEFAULT_DB}${suffix}`, { force: true });
const scale = demoScale(process.env.DS_DEMO_SCALE);
const sandbox = await startSandbox({ scale, seed: 42 });
say(`sandbox: ${sandbox.url} (scale ${scale}, seed 42)`);
const secret = randomBytes(24).toString('hex');
const views = sandbox.monitoring.views();
const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
// The usage ledger counts the demo's requests as it would a real mirror's (`status` shows them); the
// sandbox has no monthly quota to keep, so the plan's is lifted.
const config: Config = {
  baseUrl: sandbox.url,
  apiKey: sandbox.apiKey,
  apiKeySource: 'the sandbox',
  db: DB,
  logLevel: 'warn',
  configFile: null,
  limits: { v1: { ...fast, requestsPerMonth: null }, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
  monitoring: { views: views.map((v) => v.id) },
};
const mirror = openMirror(config, { logger });
const store = await mirror.store();
const receiver = await startReceiver({ store, port: 0, secrets: [secret], logger });
say(`receiver: ${receiver.url} (signed deliveries only)`);

// Every view alerts immediately by webhook to our receiver, signed with the demo's secret.
for (const view of views) {
  sandbox.monitoring.setAlertPolicy(view.id, {
    cadence: 'immediately',
    delivery_types: ['webhook'],
    webhook_url: receiver.url,
    webhook_secret: secret,
  });
}

try {
  const first = made(await mirror.sync({ streams: ['all'] }));
  say(`\nfirst sync (run ${first.runId}): ${first.outcome}, ${requests(first.streams)} requests`);
  say(runSummary(first.streams));
  say(SUMMARY_LEGEND);

  await sandbox.advance({ seconds: 6 * 3600, updateFraction: 0.01, addFraction: 0.01, removeFraction: 0.005 });
  await sandbox.monitoring.idle();
  const second = made(await mirror.sync({ streams: ['all'] }));
  say(`\nincremental sync after 6 sandbox hours (run ${second.runId}): ${second.outcome}, ${requests(second.streams)} requests`);
  say(runSummary(second.streams));

  say(await webhookLines(sandbox.monitoring.deliveries().length, receiver.stats()));
  say(`\nthe demo mirror is in ${DB}; try: npx ds-mirror --db ${DB} status`);
  say('against the real service, `npx ds-mirror sync` writes data/mirror.db: a mirror of its own');
} finally {
  await receiver.close();
  await mirror.close();
  await sandbox.close();
}

/** DS_DEMO_SCALE: the sandbox's size (1, the default, is about 2,000 assets; 0.2 a fifth): a number above 0. */
function demoScale(text: string | undefined): number {
  if (text === undefined || text === '') return 1;
  const scale = Number(text);
  if (!(scale > 0)) throw new Error(`DS_DEMO_SCALE: got "${text}"; expected a number above 0, e.g. 0.2`);
  return scale;
}

/** The run, or its refusal said as the CLI says it (e.g. DS_DEMO_DB pointed at a mirror of another service). */
function made(report: SyncReport): SyncRun {
  if (report.refused) throw new Error(report.refused.lines.join('\n'));
  return report;
}

function requests(streams: readonly { requests: number }[]): string {
  return streams.reduce((n, s) => n + s.requests, 0).toLocaleString('en-US');
}

/** What the receiver took in, and the alerts the mirror holds (one per view and development) by how they first arrived. */
async function webhookLines(sent: number, stats: { received: number; duplicates: number }): Promise<string> {
  const count = async (table: string, where?: [string, string]) => {
    let q = store.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (where) q = q.where(where[0], '=', where[1]);
    return Number(((await q.executeTakeFirst()) as { n: unknown } | undefined)?.n ?? 0).toLocaleString('en-US');
  };
  return [
    `\nwebhooks: the sandbox sent ${sent} POSTs, the receiver took ${stats.received} (${stats.duplicates} retries of one it had): ` +
      `${await count('webhook_deliveries')} distinct delivery ids, ${await count('alert_deliveries')} (delivery, view) pairs ` +
      '(one delivery id goes to every view its development matches)',
    `alerts (alert_history: one per view and development): ${await count('alert_history')} in all, ` +
      `${await count('alert_history', ['source', 'webhook'])} first arrived by webhook, ` +
      `${await count('alert_history', ['source', 'backfill'])} first found by reading each view's matches (the monitoring-views stream)`,
  ].join('\n');
}
