// @end-to-end
// One stream failing, in every way the client and the page guard can fail it, ends alone: the other
// streams of a run of every /v1 stream complete, the failed one gives back its lease and its share of the
// run's parse budget, and the run ends. The fault is told by a proxy in front of the sandbox, on page 2 of
// the token assets (a page parsed, then refused, held budget that the other lists waited for, for ever).
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { runSync } from '../../src/sync/engine.js';
import { fastClient, settings, silent } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { dialects, openTestStore, type TestStore } from '../helpers/stores.js';
import { startFaultyProxy, type Fault, type FaultyProxy } from './faulty-proxy.js';

/**
 * More pages than any honest list of this sandbox has (scale 0.1: the token assets' 2), with room: a list
 * that never ends passes it, and an honest list that reached it would fail its case.
 */
const MAX_PAGES = 15;

type Record = { id: string } & { [field: string]: unknown };

interface Case {
  name: string;
  /** The fault on the token assets' pages after the first, given the first page's records. */
  fault: (page: number, first: readonly Record[]) => Fault;
  error: RegExp;
  client?: { timeoutMs: number; retries: number };
}

const CASES: Case[] = [
  {
    name: 'a record of page 1 again (offset drift, a paging loop)',
    fault: (_page, first) => ({ rewrite: (body) => ({ ...body, data: [first[0], ...body.data.slice(1)] }) }),
    error: /DS_PAGING_LOOP|served the records of page 1 again/,
  },
  {
    name: 'a list that never ends (the page limit)',
    // New ids of the real ones' type (numbers): a mirror that has read the list refuses a string id earlier.
    fault: (page, first) => ({ rewrite: (body) => ({ ...body, data: first.map((r) => ({ ...r, id: page * 1e9 + Number(r.id) })) }) }),
    // On the mirror the earlier cases filled, the guard sized from the pages it held last time stops it
    // (each guard on its own: test/hostile/bounded-reading); either way the stream fails alone.
    error: /served more than \d+ full pages in one run/,
  },
  { name: 'a proxy page instead of JSON', fault: () => ({ status: 200, body: '<html>bad gateway</html>' }), error: /JSON|json/ },
  { name: 'a 400', fault: () => ({ status: 400, body: '{"error":"bad request"}' }), error: /400/ },
  { name: 'a 503 past every retry', fault: () => ({ status: 503, body: '{"error":"unavailable"}' }), error: /503/ },
  {
    name: 'no answer past every retry (time-outs)',
    fault: () => ({ hang: true }),
    error: /timed out|DS_TIMEOUT|time-out|timeout/i,
    // One retry is "every retry" as well as two were. The bound is the time-out's: 2 s an attempt still
    // leaves an honest request held behind the fault (until page 2 is asked) a second attempt to come back.
    client: { timeoutMs: 2_000, retries: 1 },
  },
];

const v1 = resolveStreams(['v1']);

let sandbox: Sandbox;
/** One proxy (a mirror holds the one service address it was filled from): each case sets its fault. */
let proxy: FaultyProxy;
let route: (url: URL) => Fault | null = () => null;
beforeAll(async () => {
  // Scale 0.1: some 150 token assets (the fault is on page 2 of them), every other list a page or more to
  // parse meanwhile; twelve runs of every /v1 list at scale 1 cost the suite 16 CPU-seconds, at 0.3 8.6.
  sandbox = await startSandbox({ start: PINNED_START, scale: 0.1, seed: 33 });
  const tokens = sandbox.records('assets').filter((a) => (a as { asset_class?: string }).asset_class === 'token').length;
  expect(tokens).toBeGreaterThan(100);
  proxy = await startFaultyProxy(sandbox, (url) => route(url));
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

/**
 * The proxy's route for a case: the case's fault on /v1/assets?asset_class=token past page 1; every other
 * request honest, but answered only once the fault was told (or a moment has passed), so the others still
 * have pages to parse.
 */
function routeFor(c: Case): (url: URL) => Fault | null {
  let first: Record[] = [];
  let firstRead: () => void = () => {};
  const firstPage = new Promise<void>((resolve) => (firstRead = resolve));
  let told: () => void = () => {};
  const fault = Promise.race([new Promise<void>((resolve) => (told = resolve)), sleep(5_000)]);
  return (url) => {
    if (url.pathname !== '/v1/assets' || url.searchParams.get('asset_class') !== 'token') return { wait: fault };
    const page = Number(url.searchParams.get('page') ?? 1);
    if (page === 1)
      return {
        rewrite: (body) => {
          first = body.data as Record[];
          firstRead();
          return body;
        },
      };
    // A list read ahead asks for page 2 before page 1 has come back: its fault is made from page 1's
    // records, so it waits for them (without them, "a list that never ends" served empty pages and ended).
    return {
      wait: firstPage,
      next: () => {
        setTimeout(told, 200);
        return c.fault(page, first);
      },
    };
  };
}

for (const dialect of dialects) {
  describe(`one failing stream in a run of every /v1 stream (${dialect})`, () => {
    // One mirror for the cases: each run is a full run judged by its own result, so a mirror the earlier
    // cases filled (and whose assets they failed) is as good a start as an empty one, and writes less.
    let t: TestStore;
    beforeAll(async () => {
      t = await openTestStore(dialect);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it.each(CASES)('$name: the stream fails alone, the others complete', async (c) => {
      route = routeFor(c);
      const faultsBefore = proxy.faults();
      const client = fastClient(proxy, c.client ?? {});
      try {
        const result = await runSync({
          client,
          store: t.store,
          logger: silent,
          // A budget of two pages: a page a failed list would keep would stall every other list.
          settings: settings({ mode: 'full', maxPagesPerList: MAX_PAGES, parsedRecordsAtOnce: 200 }),
          streams: v1,
        });
        expect(proxy.faults()).toBeGreaterThan(faultsBefore);
        const assets = result.streams.find((s) => s.stream === 'assets')!;
        expect(assets.outcome).toBe('failed');
        expect(assets.error).toMatch(c.error);
        const others = result.streams.filter((s) => s.stream !== 'assets');
        expect(others.map((s) => [s.stream, s.outcome]).filter(([, o]) => o !== 'success')).toEqual([]);
        expect(others.length).toBe(v1.length - 1);
        for (const s of others) expect(s.error, s.stream).toBeNull();
        // The lists a hang left at 0 records fetched: they read everything the sandbox has.
        for (const name of ['projects', 'glossary', 'charts'])
          expect(others.find((s) => s.stream === name)!.fetched, name).toBeGreaterThan(0);
        expect(result.outcome).toBe('failed');
        // Its lease is given back: the next run takes the stream at once.
        expect(await t.store.leaseHolder('sync:assets')).toBeFalsy();
      } finally {
        await client.close();
      }
    }, 120_000);
  });
}
