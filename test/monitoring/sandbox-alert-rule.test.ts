// The sandbox's own rule for which developments a view is alerted for (the oracle the reconstruction is
// checked against): a development's own attributes, its event's assets, and nothing before the view's
// evaluationStartAt, in the deliveries it sends as in the list of alerts it reports.
import { describe, expect, it } from 'vitest';
import { AlertDispatcher } from '../../sandbox/monitoring/alert-dispatcher.js';
import { AssetUniverse } from '../../sandbox/monitoring/asset-universe.js';
import { DAY, EventWorld } from '../../sandbox/monitoring/event-world.js';
import { generateViews } from '../../sandbox/monitoring/monitoring-views.js';
import { developmentRecord } from '../../sandbox/monitoring/records.js';
import { rfc3339 } from '../../sandbox/monitoring/time-format.js';
import type { WebhookSender } from '../../sandbox/webhooks/index.js';

const ANCHOR = Date.parse('2025-06-01T12:00:00Z') / 1000;
const POLICY = { cadence: 'immediately', delivery_types: ['webhook'], webhook_url: 'http://127.0.0.1:9/hooks' } as const;

function setup(startOffsetDays: number) {
  const assets = new AssetUniverse(3, 200);
  const world = new EventWorld(3, assets, 300, ANCHOR);
  // View 0 matches everything; its evaluation starts `startOffsetDays` before the anchor.
  const [view] = generateViews(3, assets, 1, ANCHOR);
  view!.evaluationStartAt = rfc3339(ANCHOR - startOffsetDays * DAY);
  const queued: string[] = [];
  const sender = { enqueue: (job: { viewId: string; body: string }) => queued.push(job.body) } as unknown as WebhookSender;
  const dispatcher = new AlertDispatcher(world, [view!], sender, { ...POLICY, delivery_types: [...POLICY.delivery_types] });
  return { world, dispatcher, queued };
}

describe("the sandbox's alert rule", () => {
  it.each([400, 200, 30, 1])('alerts for no development started before evaluationStartAt (%i days back)', (days) => {
    const { world, dispatcher } = setup(days);
    const start = ANCHOR - days * DAY;
    const alerted = new Set(dispatcher.alertsOf(0).map((a) => a.developmentId));
    let before = 0;
    for (let d = 0; d < world.dev.length; d++) {
      const id = developmentRecord(world, d).id;
      const early = world.dev.cols.startedAt[d]! < start;
      if (early) before++;
      expect([id, alerted.has(id)]).toEqual([id, !early]);
    }
    // The bound divides the history, except at 400 days: before all of it (a year).
    expect(before > 0).toBe(days < 365);
  });

  it('sends no webhook for a development started before evaluationStartAt', () => {
    const { world, dispatcher, queued } = setup(30);
    const old = [...Array(world.dev.length).keys()].filter((d) => world.dev.cols.startedAt[d]! < ANCHOR - 30 * DAY).slice(0, 20);
    const recent = [...Array(world.dev.length).keys()].filter((d) => world.dev.cols.startedAt[d]! >= ANCHOR - 30 * DAY).slice(0, 20);
    expect(dispatcher.dispatch(old, ANCHOR)).toEqual([]);
    expect(dispatcher.dispatch(recent, ANCHOR)).toHaveLength(recent.length);
    expect(queued).toHaveLength(recent.length);
  });
});
