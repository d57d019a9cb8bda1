// @end-to-end
// The totals `ds-mirror status` prints and /metrics exports, read from the database on both dialects:
// runs, failures, rows, requests, lag, pending checkpoints and webhook deliveries.
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { allStreams, resolveStreams } from '../../src/catalog/index.js';
import { main, type CliIo } from '../../src/cli/main.js';
import { createClient } from '../../src/client/index.js';
import { readMirrorStats } from '../../src/scheduler/index.js';
import type { Store } from '../../src/store/index.js';
import { runSync } from '../../src/sync/engine.js';
import { settings } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1 });
});
afterAll(async () => {
  await sandbox?.close();
});

async function sync(store: Store, streams: string[]) {
  const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey, retries: 0, limits: { v1: { requestsPerMinute: 1e6 } } });
  try {
    return await runSync({ client, store, logger: pino({ level: 'silent' }), settings: settings(), streams: resolveStreams(streams) });
  } finally {
    await client.close();
  }
}

async function status(
  test: TestStore,
): Promise<{ stream: string; rows: number; requests: number; errors: number; synced: { inserted: number } }[]> {
  let out = '';
  const stdout = new PassThrough().on('data', (d) => (out += String(d)));
  const schema = test.schema ? ['--db-schema', test.schema] : [];
  const io = { stdout, stderr: new PassThrough(), env: { DS_LOG_LEVEL: 'silent' } } as unknown as CliIo;
  expect(await main(['node', 'ds-mirror', '--db', test.url, ...schema, 'status', '--json'], io)).toBe(0);
  return JSON.parse(out);
}

describe.each(dialects)('mirror totals on %s', (dialect) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(dialect);
  });
  afterAll(async () => {
    await test?.cleanup();
  });

  it('sum every pass of a stream, count failures, and agree with ds-mirror status', async () => {
    const { store } = test;
    const first = await sync(store, ['glossary', 'chains']);
    sandbox.setChaos({ rate5xx: 1 });
    const failed = await sync(store, ['glossary']).finally(() => sandbox.setChaos(null));
    const again = await sync(store, ['glossary']);
    expect([first.outcome, failed.outcome, again.outcome]).toEqual(['success', 'failed', 'success']);
    await store.db
      .insertInto('webhook_deliveries')
      .values({
        id: 'd-1',
        view_id: 'v',
        view_name: 'V',
        event_id: 'e',
        development_id: 'dev',
        type: 'monitoring_event',
        event_timestamp: '2026-11-20T10:16:02.125Z',
        signed: store.dialect === 'sqlite' ? 1 : true,
        body: '{}',
        received_at: '2026-11-20T10:16:03.000Z',
      })
      .execute();

    const stats = await readMirrorStats(store);
    const glossary = stats.streams.find((s) => s.stream === 'glossary')!;
    const passes = [first, failed, again].flatMap((r) => r.streams.filter((s) => s.stream === 'glossary'));
    const rows = Number(
      (
        await store.db
          .selectFrom('glossary')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(glossary).toMatchObject({
      runs: 3,
      failures: 1,
      inserted: rows,
      fetched: passes.reduce((n, p) => n + p.fetched, 0),
      requests: passes.reduce((n, p) => n + p.requests, 0),
      errors: passes.reduce((n, p) => n + p.errors, 0),
      lastOutcome: 'success',
      lastError: null,
      resumes: false,
    });
    expect(glossary.lagSeconds).toBeLessThan(30);
    expect(glossary.lastDurationMs).toBe(Math.round(passes[2].durationMs));
    expect(stats.streams.find((s) => s.stream === 'chains')).toMatchObject({ runs: 1, failures: 0 });
    expect(stats.deliveries).toEqual({ received: 1, lastReceivedAt: '2026-11-20T10:16:03.000Z' });

    const printed = await status(test);
    expect(printed.find((r) => r.stream === 'glossary')).toMatchObject({
      rows,
      requests: glossary.requests,
      errors: glossary.errors,
      synced: { inserted: rows },
    });
    expect(printed.find((r) => r.stream === 'webhook-deliveries')).toMatchObject({ rows: 1 });
  });

  it('list catalog streams only: a retired stream or an old pseudo-stream in the bookkeeping is not reported', async () => {
    const { store } = test;
    const now = new Date().toISOString();
    const runId = await store.startRun(['retired-stream'], 'incremental', now);
    await store.finishStream(
      runId,
      {
        stream: 'retired-stream',
        fetched: 1,
        inserted: 1,
        updated: 0,
        unchanged: 0,
        deleted: 0,
        errors: 0,
        requests: 1,
        durationMs: 1,
        outcome: 'success',
      },
      now,
    );
    await store.transaction((tx) => tx.saveCheckpoint('monitoring-events:full-pass', { fullAt: now }));
    const catalog = new Set(allStreams().map((s) => s.name));

    const reported = (await readMirrorStats(store)).streams.map((s) => s.stream);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.filter((name) => !catalog.has(name))).toEqual([]);
    const printed = (await status(test)).map((r) => r.stream).filter((name) => name !== 'webhook-deliveries');
    expect(printed.filter((name) => !catalog.has(name))).toEqual([]);
  });
});
