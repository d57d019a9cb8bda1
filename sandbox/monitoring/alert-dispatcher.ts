// Alert policies per monitoring view and the trigger of webhook deliveries: a new development that
// matches a view whose policy is `immediately` + `webhook` is queued on the sender, once per view,
// under one delivery id per development (the same id for every view it matches). A view alerts for a
// development by its predicates, from its evaluationStartAt on.
import type { AlertPolicy, WebhookSender } from '../webhooks/index.js';
import { buildEnvelope } from '../webhooks/index.js';
import type { EventWorld } from './event-world.js';
import { developmentId, eventId, eventTitle } from './event-text.js';
import type { ViewDefinition } from './monitoring-views.js';
import { viewPredicate } from './monitoring-views.js';
import { matchesDevelopment, type Predicate } from './predicate.js';
import { developmentSummaryRecord } from './records.js';
import { Kind, seededUuid } from './seeded-random.js';
import { parseTimeBound, rfc3339 } from './time-format.js';

const CADENCES = new Set(['immediately', 'daily', 'weekly']);

/** Throws with a message that says what to fix (never quoting the secret). */
export function validatePolicy(policy: AlertPolicy): AlertPolicy {
  if (!CADENCES.has(policy.cadence))
    throw new TypeError(`alert policy cadence must be immediately, daily or weekly; got "${policy.cadence}"`);
  if (!Array.isArray(policy.delivery_types)) throw new TypeError('alert policy delivery_types must be an array');
  if (policy.delivery_types.includes('webhook')) {
    let url: URL;
    try {
      url = new URL(policy.webhook_url ?? '');
    } catch {
      throw new TypeError('alert policy webhook_url is required (an http or https URL) when delivery_types contains "webhook"');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('alert policy webhook_url must be http or https');
  }
  return { ...policy, delivery_types: [...policy.delivery_types] };
}

export interface QueuedDelivery {
  id: string;
  viewId: string;
  developmentId: string;
}

export class AlertDispatcher {
  /** null: explicitly no policy (the default does not apply). */
  private readonly policies = new Map<number, AlertPolicy | null>();
  private readonly defaultPolicy: AlertPolicy | undefined;

  constructor(
    private readonly w: EventWorld,
    private readonly views: readonly ViewDefinition[],
    private readonly sender: WebhookSender,
    defaultPolicy?: AlertPolicy,
    /** The payload as sent (a service that changed its shape); as built when not given. */
    private readonly payload: (envelope: unknown) => unknown = (e) => e,
  ) {
    this.defaultPolicy = defaultPolicy && validatePolicy(defaultPolicy);
  }

  setPolicy(view: number, policy: AlertPolicy | null): void {
    this.policies.set(view, policy && validatePolicy(policy));
  }

  policy(view: number): AlertPolicy | undefined {
    const own = this.policies.get(view);
    return own === null ? undefined : (own ?? this.defaultPolicy);
  }

  /** The view's predicates, and no development started before its evaluation start. */
  private alertPredicate(v: ViewDefinition): Predicate {
    const start = parseTimeBound(v.evaluationStartAt, 'start');
    return { ...viewPredicate(this.w.assets, v), ...(Number.isNaN(start) ? {} : { start }) };
  }

  /** Every live (event, development) that alerts view `view` now, whether or not a delivery went out. */
  alertsOf(view: number): { eventId: string; developmentId: string }[] {
    const predicate = this.alertPredicate(this.views[view]!);
    const out: { eventId: string; developmentId: string }[] = [];
    for (let d = 0; d < this.w.dev.length; d++) {
      if (matchesDevelopment(this.w, predicate, d))
        out.push({ eventId: eventId(this.w, this.w.dev.cols.event[d]), developmentId: developmentId(this.w, d) });
    }
    return out;
  }

  /** Queues the deliveries that the new developments trigger; `now` in Unix seconds. */
  dispatch(developments: readonly number[], now: number): QueuedDelivery[] {
    const targets = this.views.flatMap((v, i) => {
      const p = this.policy(i);
      const webhook = p && p.cadence === 'immediately' && p.delivery_types.includes('webhook') && p.webhook_url;
      return webhook ? [{ view: v, policy: p, predicate: this.alertPredicate(v) }] : [];
    });
    const queued: QueuedDelivery[] = [];
    for (const d of developments) {
      const matching = targets.filter((t) => matchesDevelopment(this.w, t.predicate, d));
      if (matching.length === 0) continue;
      const deliveryId = seededUuid(this.w.seed, Kind.delivery, d);
      const dev = developmentSummaryRecord(this.w, d);
      const e = this.w.dev.cols.event[d];
      for (const t of matching) {
        const envelope = buildEnvelope({
          deliveryId,
          timestamp: rfc3339(now),
          view: { id: t.view.id, name: t.view.name },
          event: { id: eventId(this.w, e), title: eventTitle(this.w, e) },
          assets: this.w
            .assetsOf(e)
            .map((a) => ({ id: this.w.assets.id(a), name: this.w.assets.name(a), logo_url: this.w.assets.logoUrl(a) })),
          development: {
            id: dev.id,
            title: dev.title,
            summary: dev.summary,
            categories: dev.intelCategories,
            subcategories: dev.intelSubcategories,
            importance: dev.importance,
            actionable: dev.actionable,
            startedAt: dev.startedAt,
            endedAt: this.w.dev.cols.endedAt[d] <= now ? dev.endedAt : undefined,
          },
        });
        this.sender.enqueue({
          id: deliveryId,
          viewId: t.view.id,
          url: t.policy.webhook_url!,
          secret: t.policy.webhook_secret || undefined,
          body: JSON.stringify(this.payload(envelope)),
        });
        queued.push({ id: deliveryId, viewId: t.view.id, developmentId: dev.id });
      }
    }
    return queued;
  }
}
