// The development a webhook names goes to the front of the details backlog (#24.2), whatever its
// importance and age, and what webhooks add to the next events run (the re-read of an old event they
// named, the detail) is counted in the run's plan.
import { pino } from 'pino';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCost } from '../../src/budget/index.js';
import { resolveStreams } from '../../src/catalog/index.js';
import { startReceiver } from '../../src/receiver/index.js';
import type { SyncSettings } from '../../src/sync/context.js';
import { detailsBacklog } from '../../src/requests/details-backlog.js';
import { settings as baseSettings, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';
import { dialects } from '../helpers/stores.js';
import { makeEnvelope, sign } from '../receiver/webhook-fixtures.js';

const SECRET = 'whsec-details';
const withDetails = (details: NonNullable<SyncSettings['monitoring']['details']>): Partial<SyncSettings> => {
  const s = baseSettings();
  return { monitoring: { ...s.monitoring, fullPassEveryHours: 100_000, details } };
};
const ONE_A_RUN = { minimumImportance: 'high', maxAgeDays: 30, maxPerRun: 1 } as const;

describe.each(dialects)('details of developments webhooks named, on %s', (dialect) => {
  const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.05, seed: 17 });

  const fetched = async () =>
    (await fx.t.store.db.selectFrom('monitoring_developments').select('id').where('detail_fetched_at', 'is not', null).execute()).map(
      (r) => r.id,
    );

  it('are fetched first, even below the backlog importance and age; the plan counts their re-read and detail', async () => {
    const first = await syncOnce(fx.t.store, fx.sandbox, ['monitoring-events'], { settings: withDetails({ ...ONE_A_RUN, maxPerRun: 0 }) });
    expect(first.outcome).toBe('success');
    expect(await fetched()).toEqual([]);
    // The oldest event's development that the backlog leaves out (not high importance, months old).
    const oldest = [...fx.sandbox.monitoring.events()].sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))[0]!;
    const named = oldest.developments.find((d) => d.importance !== 'high')!;
    expect(named).toBeDefined();

    const settings = { ...baseSettings(), ...withDetails(ONE_A_RUN) };
    const [events] = resolveStreams(['monitoring-events']);
    const planBefore = await runCost(fx.t.store, settings, events!);
    const backlogBefore = await detailsBacklog(fx.t.store, ONE_A_RUN);
    expect(backlogBefore.inScope).toBeGreaterThan(0); // high-importance details wait too: the webhook's must jump them

    const receiver = await startReceiver({ store: fx.t.store, port: 0, secrets: [SECRET], logger: pino({ level: 'silent' }) });
    try {
      const view = fx.sandbox.monitoring.views()[0]!;
      const body = JSON.stringify(makeEnvelope({ viewId: view.id, viewName: view.name, eventId: oldest.id, developmentId: named.id }));
      const signature = sign(SECRET, body, Math.floor(Date.now() / 1000));
      const res = await request(receiver.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        body,
      });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    } finally {
      await receiver.close();
    }

    expect((await detailsBacklog(fx.t.store, ONE_A_RUN)).inScope).toBe(backlogBefore.inScope + 1);
    // One request more: the old event re-read by id (the run's one detail is the webhook's instead).
    expect((await runCost(fx.t.store, settings, events!)).requests).toBe(planBefore.requests + 1);

    const run = await syncOnce(fx.t.store, fx.sandbox, ['monitoring-events'], { settings: withDetails(ONE_A_RUN) });
    expect(run.outcome).toBe('success');
    expect(await fetched()).toEqual([named.id]);
  });
});
