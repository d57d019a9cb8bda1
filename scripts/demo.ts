// `npm run demo`: the whole product on one machine with no API key. Starts the sandbox, mirrors it into
// a file of the demo's own (data/demo.db, made afresh each time: never the real mirror, data/mirror.db),
// starts the webhook receiver, lets the sandbox's clock run so new developments are POSTed (signed) to
// the receiver, syncs again incrementally, and prints what landed. It writes through the same library
// guard as the CLI: a file that holds another service (DS_DEMO_DB pointed at a real mirror) is refused.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { startSandbox } from '../sandbox/index.js';
import { resolveStreams } from '../src/catalog/index.js';
import { createClient } from '../src/client/index.js';
import { createLogger } from '../src/logger.js';
import { startReceiver } from '../src/receiver/index.js';
import { openStore } from '../src/store/index.js';
import { runSync } from '../src/sync/engine.js';
import { syncSettings } from '../src/sync/settings.js';
import { formatTable } from '../src/cli/table.js';

const DEFAULT_DB = 'data/demo.db';
const DB = `sqlite:${process.env.DS_DEMO_DB ?? DEFAULT_DB}`;
const logger = createLogger(process.env.DS_LOG_LEVEL ?? 'warn');
const say = (line = '') => process.stdout.write(`${line}\n`);

mkdirSync('data', { recursive: true });
// The default demo file is the demo's alone: each run starts it afresh (its sandbox listens on a new port).
if (!process.env.DS_DEMO_DB) for (const suffix of ['', '-wal', '-shm']) rmSync(`${DEFAULT_DB}${suffix}`, { force: true });
const sandbox = await startSandbox({ scale: 1, seed: 42 });
say(`sandbox: ${sandbox.url} (scale 1, seed 42)`);
const store = await openStore({ url: DB, logger });
const secret = randomBytes(24).toString('hex');
const receiver = await startReceiver({ store, port: 0, secrets: [secret], logger });
say(`receiver: ${receiver.url} (signed deliveries only)`);

// Every view alerts immediately by webhook to our receiver, signed with the demo's secret.
const views = sandbox.monitoring.views();
for (const view of views) {
  sandbox.monitoring.setAlertPolicy(view.id, {
    cadence: 'immediately',
    delivery_types: ['webhook'],
    webhook_url: receiver.url,
    webhook_secret: secret,
  });
}

const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
const client = createClient({
  baseUrl: sandbox.url,
  apiKey: sandbox.apiKey,
  limits: { v1: fast, charts: fast, open: fast, tokenUnlocks: fast, monitoring: fast },
});
const settings = syncSettings({ monitoring: { views: views.map((v) => v.id) } });
try {
  const first = await runSync({ client, store, logger, settings, streams: resolveStreams(['all']) });
  say(`\nfirst sync (run ${first.runId}): ${first.outcome}`);
  say(summary(first.streams));

  await sandbox.advance({ seconds: 6 * 3600, updateFraction: 0.01, addFraction: 0.01, removeFraction: 0.005 });
  await sandbox.monitoring.idle();
  const second = await runSync({ client, store, logger, settings, streams: resolveStreams(['all']) });
  say(`\nincremental sync after 6 sandbox hours (run ${second.runId}): ${second.outcome}`);
  say(summary(second.streams));

  const sent = sandbox.monitoring.deliveries();
  const stats = receiver.stats();
  const landed = await store.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const pairs = await store.db
    .selectFrom('alert_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  const alerts = await store.db
    .selectFrom('alert_history')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  say(
    `\nwebhooks: ${sent.length} sent by the sandbox, ${stats.received} received (${stats.duplicates} duplicates), ${Number(landed?.n)} delivery ids, ${Number(pairs?.n)} (delivery, view) pairs, ${Number(alerts?.n)} alerts`,
  );
  say(`\nthe demo mirror is in ${DB}; try: npx ds-mirror --db ${DB} status`);
  say('against the real service, `npx ds-mirror sync` writes data/mirror.db: a mirror of its own');
} finally {
  await receiver.close();
  await client.close();
  await store.close();
  await sandbox.close();
}

function summary(
  streams: readonly {
    stream: string;
    fetched: number;
    inserted: number;
    updated: number;
    unchanged: number;
    deleted: number;
    requests: number;
  }[],
): string {
  return formatTable(
    ['stream', 'fetched', 'inserted', 'updated', 'unchanged', 'deleted', 'requests'],
    streams.map((s) => [s.stream, s.fetched, s.inserted, s.updated, s.unchanged, s.deleted, s.requests]),
  );
}
