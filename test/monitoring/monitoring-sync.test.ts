// @end-to-end
// Token unlocks and monitoring mirrored from the sandbox over real HTTP into a real store (SQLite file and
// PostgreSQL): equal to what the sandbox serves, idempotent, incremental after the clock advances, the
// lookback, failed details retried, the alert backfill, and the errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStreams } from '../../src/catalog/index.js';
import { viewsStream } from '../../src/catalog/monitoring.js';
import type { Store } from '../../src/store/index.js';
import type { SyncSettings } from '../../src/sync/context.js';
import { runSync, type RunResult } from '../../src/sync/engine.js';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { CATEGORIES } from '../../sandbox/monitoring/index.js';
import { ALL_DETAILS, fastClient, settings as baseSettings, silent, syncOnce } from '../helpers/mirror.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { monitoringParams } from '../../src/catalog/query-params.js';
import {
  failingDetails,
  liveRaw,
  MONITORING_STREAMS,
  millis,
  pairs,
  parseJson,
  rowsOf,
  sandboxViewAlerts,
  sandboxViewMatches,
  tick,
  writtenAfter,
} from './monitoring-fixtures.js';
import { PINNED_START } from '../helpers/sandbox-start.js';

const UNKNOWN_VIEW = '00000000-0000-4000-8000-00000000beef';
const DAY_MS = 86_400_000;
const sorted = (ids: Iterable<string>) => [...ids].sort();
const byName = (r: RunResult, name: string) => r.streams.find((s) => s.stream === name)!;

describe.each(dialects)('monitoring mirror on %s', (dialect) => {
  let sb: Sandbox;
  let t: TestStore;
  let store: Store;
  let views: string[];

  const monitoring = (views: string[]): Partial<SyncSettings> => ({
    monitoring: { views, events: {}, tokenUnlocks: {}, fullPassEveryHours: 24, params: monitoringParams(), details: ALL_DETAILS },
  });
  const run = (opts: { mode?: 'full'; views?: string[] } = {}) =>
    syncOnce(store, sb, MONITORING_STREAMS, {
      settings: { ...monitoring(opts.views ?? views), ...(opts.mode ? { mode: opts.mode } : {}) },
    });

  async function expectMirrorEqualsSandbox(): Promise<void> {
    const m = sb.monitoring;
    expect(await liveRaw(store, 'token_unlock_assets')).toEqual(new Map(m.tokenUnlockAssets().map((a) => [a.id, a])));
    const unlockRows = await rowsOf(store, 'token_unlock_assets');
    const tagged = m.tokenUnlockAssets().find((a) => a.tags !== null && a.otherInfo !== null)!;
    const row = unlockRows.find((r) => r.id === tagged.id)!;
    expect([parseJson(row.tags), row.other_info]).toEqual([tagged.tags, tagged.otherInfo]);

    expect(await liveRaw(store, 'monitoring_categories', 'slug')).toEqual(new Map(CATEGORIES.map((c) => [c.slug, c])));
    expect(await pairs(store, 'monitoring_subcategories', 'category_slug', 'slug')).toEqual(
      sorted(CATEGORIES.flatMap((c) => c.subcategories.map((s) => `${c.slug}|${s.slug}`))),
    );

    const events = m.events();
    expect(await liveRaw(store, 'monitoring_events')).toEqual(new Map(events.map((e) => [e.id, e])));
    const live = new Set(events.map((e) => e.id));
    const assets = (await rowsOf(store, 'monitoring_event_assets')).filter((r) => live.has(String(r.event_id)));
    expect(sorted(assets.map((r) => `${r.event_id}|${r.asset_id}|${r.class}`))).toEqual(
      sorted(events.flatMap((e) => e.assets.map((a) => `${e.id}|${a.id}|${a.class}`))),
    );
    const categories = (await pairs(store, 'monitoring_event_categories', 'event_id', 'category_slug')).filter((p) =>
      live.has(p.split('|')[0]),
    );
    expect(categories).toEqual(sorted(events.flatMap((e) => e.intelCategories.map((c) => `${e.id}|${c}`))));
    const subs = (await pairs(store, 'monitoring_event_subcategories', 'event_id', 'subcategory_slug')).filter((p) =>
      live.has(p.split('|')[0]),
    );
    expect(subs).toEqual(sorted(events.flatMap((e) => e.intelSubcategories.map((c) => `${e.id}|${c}`))));

    const devRows = (await rowsOf(store, 'monitoring_developments')).filter((r) => r.deleted_at === null);
    const devIds = events.flatMap((e) => e.developments.map((d) => d.id));
    expect(sorted(devRows.map((r) => String(r.id)))).toEqual(sorted(devIds));
    for (const r of devRows) {
      const detail = m.development(String(r.id))!;
      expect(r.detail_fetched_at).not.toBeNull();
      // The detail's event reference follows its event (a development added later changes the event's count),
      // without refetching the detail.
      expect(parseJson(r.raw)).toEqual(detail);
      expect([r.event_id, parseJson(r.documents), millis(r.updated_at)]).toEqual([
        detail.event.id,
        detail.documents,
        Date.parse(detail.updatedAt),
      ]);
    }

    const viewRows = await liveRaw(store, 'monitoring_views');
    for (const v of m.views()) expect(viewRows.get(v.id)).toEqual(v);
    const allHistory = await rowsOf(store, 'alert_history');
    for (const id of views) {
      const history = allHistory.filter((r) => r.view_id === id).map((r) => String(r.event_id));
      // History is append-only: every current match with an alert is in it (and events since removed stay).
      const alerted = new Set(sandboxViewAlerts(sb, id).map((p) => p.split('|')[0]!));
      expect(sorted(history)).toEqual(expect.arrayContaining(sandboxViewMatches(sb, id).filter((e) => alerted.has(e))));
    }
  }

  beforeAll(async () => {
    // Scale 0.02 (40 events, 221 developments to fetch in detail) with three views, so that one has predicates
    // and matches (the backfill's case): the scale alone would give one view, without predicates. Seed 2 has
    // events in the week before the high-water mark (the lookback's case): at 40 events most weeks have none.
    sb = await startSandbox({ start: PINNED_START, scale: 0.02, seed: 2, monitoringViews: 3 });
    t = await openTestStore(dialect);
    store = t.store;
    views = sb.monitoring.views().map((v) => v.id);
  });
  afterAll(async () => {
    await t?.cleanup();
    await sb?.close();
  });

  it('mirrors token unlocks, categories, events, developments with details and view matches; an unknown view fails alone', async () => {
    const result = await run({ views: [...views, UNKNOWN_VIEW] });
    await expectMirrorEqualsSandbox();
    for (const id of views) {
      const history = (await rowsOf(store, 'alert_history')).filter((r) => r.view_id === id);
      // One alert per development the sandbox alerts the view for: the reconstruction agrees with it.
      expect(sorted(history.map((r) => `${r.event_id}|${r.development_id}`))).toEqual(sandboxViewAlerts(sb, id));
      expect(new Set(history.map((r) => r.source))).toEqual(new Set(history.length > 0 ? ['backfill'] : []));
    }
    const viewStats = byName(result, 'monitoring-views');
    expect(viewStats.outcome).toBe('partial');
    expect(viewStats.error).toContain(`unknown monitoring view "${UNKNOWN_VIEW}"`);
    expect(result.streams.filter((s) => s.stream !== 'monitoring-views').map((s) => s.outcome)).toEqual(['success', 'success', 'success']);
    // Honest request counts: the streams add up to what the client sent; events = pages + one per detail.
    expect(result.streams.reduce((n, s) => n + s.requests, 0)).toBe(result.requests);
    const events = sb.monitoring.events();
    const developments = events.reduce((n, e) => n + e.developments.length, 0);
    expect(byName(result, 'monitoring-events').requests).toBe(Math.floor(events.length / 100) + 1 + developments);
  });

  it('a second run fetches no development detail and writes nothing', async () => {
    const before = await tick();
    const result = await run();
    expect(result.outcome).toBe('success');
    for (const s of result.streams) expect([s.stream, s.inserted, s.updated, s.deleted, s.errors]).toEqual([s.stream, 0, 0, 0, 0]);
    // The incremental window is one short page; no detail is pending.
    expect(byName(result, 'monitoring-events').requests).toBe(1);
    for (const table of [
      'monitoring_events',
      'monitoring_developments',
      'token_unlock_assets',
      'monitoring_views',
      'monitoring_categories',
    ]) {
      expect(await writtenAfter(store, table, 'synced_at', before)).toEqual([]);
    }
  });

  it('after the clock advances, a full pass fetches and writes exactly the new and changed, and removes the removed', async () => {
    const change = (await sb.advance({ seconds: 86_400, updateFraction: 0.05, addFraction: 0.03, removeFraction: 0.02 })).monitoring;
    expect(change.events.removed.length).toBeGreaterThan(0);
    const before = await tick();
    const result = await run({ mode: 'full' });
    expect(result.outcome).toBe('success');
    const ev = change.events,
      dv = change.developments,
      tu = change.tokenUnlockAssets;
    expect(await writtenAfter(store, 'monitoring_events', 'synced_at', before)).toEqual(sorted([...ev.added, ...ev.updated]));
    expect(await writtenAfter(store, 'monitoring_developments', 'detail_fetched_at', before)).toEqual(sorted([...dv.added, ...dv.updated]));
    expect(await writtenAfter(store, 'token_unlock_assets', 'synced_at', before)).toEqual(sorted([...tu.added, ...tu.updated]));
    const deleted = async (table: string) =>
      (await rowsOf(store, table))
        .filter((r) => r.deleted_at !== null)
        .map((r) => String(r.id))
        .sort();
    expect(await deleted('monitoring_events')).toEqual(sorted(ev.removed));
    expect(await deleted('monitoring_developments')).toEqual(sorted(dv.removed));
    expect(await deleted('token_unlock_assets')).toEqual(sorted(tu.removed));
    const pages = Math.floor(sb.monitoring.events().length / 100) + 1;
    expect(byName(result, 'monitoring-events').requests).toBe(pages + dv.added.length + dv.updated.length);
    await expectMirrorEqualsSandbox();
  });

  it('the lookback catches an event updated after its window; older updates wait for the full pass', async () => {
    const hw = Math.max(
      ...(await rowsOf(store, 'monitoring_events')).filter((r) => r.deleted_at === null).map((r) => millis(r.started_at)!),
    );
    const change = (await sb.advance({ seconds: 3600, updateFraction: 0.5, addFraction: 0, removeFraction: 0 })).monitoring;
    const started = new Map(sb.monitoring.events().map((e) => [e.id, Date.parse(e.startedAt)]));
    const from = hw - 7 * DAY_MS;
    const inWindow = change.events.updated.filter((id) => started.get(id)! >= from);
    const older = change.events.updated.filter((id) => started.get(id)! < from);
    // An event that started before the high-water mark (so before the last run's newest) yet changed since.
    expect(inWindow.filter((id) => started.get(id)! < hw).length).toBeGreaterThan(0);
    expect(older.length).toBeGreaterThan(0);

    let before = await tick();
    expect((await run()).outcome).toBe('success');
    expect(await writtenAfter(store, 'monitoring_events', 'synced_at', before)).toEqual(sorted(inWindow));
    before = await tick();
    expect((await run({ mode: 'full' })).outcome).toBe('success');
    expect(await writtenAfter(store, 'monitoring_events', 'synced_at', before)).toEqual(sorted(older));
    await expectMirrorEqualsSandbox();
  });

  it('a development detail that fails to fetch stays pending and is fetched on the next run', async () => {
    const change = (await sb.advance({ seconds: 600, updateFraction: 0, addFraction: 0.05, removeFraction: 0 })).monitoring;
    // Developments of new events: an incremental run's window covers them.
    const fresh = change.events.added.flatMap((id) => sb.monitoring.event(id)!.developments.map((d) => d.id));
    const failing = new Set(fresh.slice(0, 3));
    expect(failing.size).toBe(3);
    const client = failingDetails(fastClient(sb), failing);
    let result: RunResult;
    try {
      result = await runSync({
        client,
        store,
        logger: silent,
        settings: baseSettings(monitoring(views)),
        streams: resolveStreams(['monitoring-events']),
      });
    } finally {
      await client.close();
    }
    const events = byName(result, 'monitoring-events');
    expect([events.outcome, events.errors]).toEqual(['partial', 3]);
    const pending = (await rowsOf(store, 'monitoring_developments')).filter((r) => r.detail_fetched_at === null).map((r) => String(r.id));
    expect(sorted(pending)).toEqual(sorted(failing));

    const retried = await syncOnce(store, sb, ['monitoring-events'], { settings: monitoring(views) });
    expect(byName(retried, 'monitoring-events').requests).toBe(1 + 3);
    expect((await rowsOf(store, 'monitoring_developments')).filter((r) => r.detail_fetched_at === null)).toEqual([]);
    expect((await run({ mode: 'full' })).outcome).toBe('success');
    await expectMirrorEqualsSandbox();
  });

  it('backfill of a view reconstructs its alerts beside the webhook rows, or only since a date', async () => {
    // A view whose predicates leave some developments of its matching events without an alert.
    const record = sb.monitoring
      .views()
      .find((v) => views.includes(v.id) && (v.minimumImportance !== '' || v.verified !== null) && sandboxViewMatches(sb, v.id).length > 0)!;
    const view = record.id;
    const matches = sandboxViewMatches(sb, view);
    const expected = sandboxViewAlerts(sb, view);
    const developments = matches.flatMap((id) => sb.monitoring.event(id)!.developments);
    expect(expected.length).toBeLessThan(developments.length);
    await store.db.deleteFrom('alert_history').where('view_id', '=', view).execute();
    // A webhook brought one of the alerts before the backfill.
    const [eventId, developmentId] = expected[0]!.split('|');
    const received = new Date().toISOString();
    await store.transaction((tx) =>
      tx.insertIgnore(
        'alert_history',
        ['view_id', 'event_id', 'development_id'],
        [
          {
            view_id: view,
            event_id: eventId,
            development_id: developmentId,
            first_seen_at: received,
            source: 'webhook',
            webhook_at: received,
          },
        ],
      ),
    );
    const backfill = async (since?: string) => {
      const client = fastClient(sb);
      try {
        return await runSync({
          client,
          store,
          logger: silent,
          settings: baseSettings(monitoring([])),
          streams: [viewsStream({ views: [view], since, full: since === undefined })],
        });
      } finally {
        await client.close();
      }
    };
    expect((await backfill()).outcome).toBe('success');
    let history = (await rowsOf(store, 'alert_history')).filter((r) => r.view_id === view);
    const pairsOf = (rows: Record<string, unknown>[]) => sorted(rows.map((r) => `${r.event_id}|${r.development_id}`));
    expect(pairsOf(history)).toEqual(expected);
    const both = history.find((r) => r.development_id === developmentId)!;
    expect([both.source, both.webhook_at === null, both.backfill_at === null, both.reconstructed_at === null]).toEqual([
      'webhook',
      false,
      false,
      false,
    ]);
    // What an AssetRef cannot show (sector, pre-TGE, network) is named; the rest was checked.
    const assetOnly = (['assetSectors', 'assetSubsectors', 'assetPreTge', 'assetEcosystemNetworkIds'] as const).filter((k) => {
      const value: unknown = record[k];
      return Array.isArray(value) ? value.length > 0 : value !== null;
    });
    expect(new Set(history.map((r) => r.unchecked_predicates))).toEqual(new Set([assetOnly.join(',')]));

    // Since a date: the developments started since then, of the events the pass read before it stopped.
    const started = new Map(developments.map((d) => [d.id, Date.parse(d.startedAt)]));
    const eventStart = new Map(sb.monitoring.events().map((e) => [e.id, Date.parse(e.startedAt)]));
    const since = new Date(eventStart.get(matches[Math.floor(matches.length / 2)]!)!).toISOString();
    await store.db.deleteFrom('alert_history').where('view_id', '=', view).execute();
    expect((await backfill(since)).outcome).toBe('success');
    history = (await rowsOf(store, 'alert_history')).filter((r) => r.view_id === view);
    const after = (pair: string) => started.get(pair.split('|')[1]!)! >= Date.parse(since);
    expect(pairsOf(history)).toEqual(
      expect.arrayContaining(expected.filter((p) => eventStart.get(p.split('|')[0]!)! >= Date.parse(since))),
    );
    expect(expected.filter(after)).toEqual(expect.arrayContaining(pairsOf(history)));
  });

  it("a wrong key is a typed error with the server's message and the fix, never the key", async () => {
    const wrong = 'sbx_wrong_key_0123456789';
    const result = await syncOnce(store, { url: sb.url, apiKey: wrong }, MONITORING_STREAMS, { settings: monitoring(views) });
    const unlocks = byName(result, 'token-unlocks');
    expect(unlocks.outcome).toBe('failed');
    expect(unlocks.error).toContain('invalid auth mechanism');
    expect(unlocks.error).toContain('X-Service-API-Key');
    expect(byName(result, 'monitoring-events').outcome).toBe('failed');
    for (const s of result.streams) expect(s.error ?? '').not.toContain(wrong);
  });
});
