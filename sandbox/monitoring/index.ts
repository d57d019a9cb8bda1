// The sandbox's token-unlock and monitoring service: generated data, request handling, change over
// time and webhook alerts. The HTTP server mounts `handle`; tests drive `advance` and read the rest.
import { SteppedClock, WebhookSender, type AlertPolicy, type DeliveryLog } from '../webhooks/index.js';
import { AlertDispatcher } from './alert-dispatcher.js';
import { AssetUniverse } from './asset-universe.js';
import { EventWorld } from './event-world.js';
import { resolveView, generateViews, viewRecord, type ViewDefinition } from './monitoring-views.js';
import { developmentRecord, eventRecord, resolveDevelopment, resolveEvent } from './records.js';
import { route } from './routes.js';
import { Kind, Rng } from './seeded-random.js';
import { sizesFor, type Sizes } from './sizes.js';
import { rfc3339 } from './time-format.js';
import { TokenUnlocks } from './token-unlocks.js';
import type {
  AdvanceOptions,
  AssetRef,
  Development,
  HandleRequest,
  HandleResult,
  MonitoringChange,
  MonitoringEvent,
  MonitoringView,
  Profile,
  TokenUnlockAsset,
} from './types.js';
import { WELL_KNOWN_ASSETS } from './vocabulary.js';
import { advanceWorld } from './world-advance.js';

export type * from './types.js';
export type { DeliveryLog } from '../webhooks/index.js';
export type { Sizes } from './sizes.js';
export { QUERY_PARAMS } from './query-params.js';
export { CATEGORIES } from './taxonomy.js';

export interface MonitoringServiceOptions {
  seed: number;
  scale: number;
  profile: Profile;
  /** Views to generate instead of the scale's. */
  views?: number;
  apiKey: string;
  now: () => Date;
  webhooks?: { timeFactor?: number; defaultPolicy?: AlertPolicy; concurrency?: number };
  /** The payload as sent: a service that changed its shape rewrites it (the chaos `shape` aimed at `/webhook`). */
  payload?: (envelope: unknown) => unknown;
}

export interface MonitoringService {
  /** Handles /token-unlocks/v1/* and /monitoring/v2/*; null for any other path. */
  handle(req: HandleRequest): HandleResult | null;
  /**
   * Moves the data to time `to`; returns exactly which ids changed, and the deliveries queued. Webhook
   * retries and time-outs due by `to` happen then: they run on this clock, never on the machine's.
   */
  advance(to: Date, opts: AdvanceOptions): MonitoringChange;
  /** Stops the webhook sender and aborts attempts in flight. */
  close(): Promise<void>;
  readonly sizes: Sizes;
  /** Every current event in API shape, newest startedAt first. */
  events(): MonitoringEvent[];
  /** An event by UUID or slug; undefined when unknown or removed. */
  event(idOrSlug: string): MonitoringEvent | undefined;
  development(id: string): Development | undefined;
  views(): MonitoringView[];
  tokenUnlockAssets(): TokenUnlockAsset[];
  /** The monitoring asset universe as AssetRefs (class `primary`). */
  assets(): AssetRef[];
  /** Sets (or, with null, removes) a view's alert policy; the view by UUID or slug. Throws on bad input. */
  setAlertPolicy(viewIdOrSlug: string, policy: AlertPolicy | null): void;
  alertPolicy(viewIdOrSlug: string): AlertPolicy | undefined;
  /** Every live (event, development) a view alerts for now by its predicates (a test oracle). */
  alertsOf(viewIdOrSlug: string): { eventId: string; developmentId: string }[];
  deliveries(): DeliveryLog[];
  /**
   * Resolves when no webhook attempt is in flight or ready to start. A delivery waiting for a retry
   * (state `scheduled`) goes out when `advance` reaches its time.
   */
  idle(): Promise<void>;
}

const seconds = (d: Date): number => Math.floor(d.getTime() / 1000);

/** The token-unlock and monitoring asset universe, by index, for the `/v1` world to list (the same seed). */
export function partnerUniverse(seed: number, scale: number, profile: Profile) {
  const universe = new AssetUniverse(seed, sizesFor(profile, scale).assets);
  return {
    size: universe.size,
    wellKnown: Math.min(WELL_KNOWN_ASSETS.length, universe.size),
    id: (i: number) => universe.id(i),
    asset: (i: number) => ({
      name: universe.name(i),
      symbol: universe.symbol(i),
      slug: universe.slug(i),
      subsector: universe.subsectorName(i),
    }),
  };
}

export function createMonitoringService(opts: MonitoringServiceOptions): MonitoringService {
  const sizes = { ...sizesFor(opts.profile, opts.scale), ...(opts.views === undefined ? {} : { views: opts.views }) };
  const anchor = seconds(opts.now());
  const universe = new AssetUniverse(opts.seed, sizes.assets);
  const world = new EventWorld(opts.seed, universe, sizes.events, anchor);
  const views: ViewDefinition[] = generateViews(opts.seed, universe, sizes.views, anchor);
  const tokenUnlocks = new TokenUnlocks(opts.seed, universe, sizes.tokenUnlocks, anchor);
  const senderClock = new SteppedClock(anchor * 1000);
  const sender = new WebhookSender({ clock: senderClock, timeFactor: opts.webhooks?.timeFactor, concurrency: opts.webhooks?.concurrency });
  const alerts = new AlertDispatcher(world, views, sender, opts.webhooks?.defaultPolicy, opts.payload);
  const now = (): number => seconds(opts.now());
  let clock = anchor;
  let step = 0;

  const viewIndex = (idOrSlug: string): number => {
    const v = resolveView(opts.seed, views, idOrSlug);
    if (v < 0) throw new RangeError(`unknown monitoring view "${idOrSlug}"`);
    return v;
  };

  return {
    sizes,
    handle: (req) => route({ apiKey: opts.apiKey, world, views, tokenUnlocks, now }, req),
    advance(to, fractions) {
      const target = seconds(to);
      const rng = new Rng(opts.seed, Kind.advance, step++);
      const change = advanceWorld(world, rng, fractions, clock, target);
      const tokenUnlockAssets = tokenUnlocks.advance(rng, fractions);
      clock = Math.max(clock, target);
      senderClock.advanceTo(clock * 1000); // retries and time-outs due by now, before the new alerts
      const deliveries = alerts.dispatch(change.newDevelopments, target);
      return { at: rfc3339(target), events: change.events, developments: change.developments, tokenUnlockAssets, deliveries };
    },
    close: () => sender.close(),
    events: () =>
      Array.from(world.byStartDescending())
        .filter((e) => world.isLive(e))
        .map((e) => eventRecord(world, e)),
    event(idOrSlug) {
      const e = resolveEvent(world, idOrSlug);
      return e < 0 ? undefined : eventRecord(world, e);
    },
    development(id) {
      const d = resolveDevelopment(world, id);
      return d < 0 ? undefined : developmentRecord(world, d);
    },
    views: () => views.map((v) => viewRecord(world, v, now())),
    tokenUnlockAssets: () => tokenUnlocks.all(),
    assets: () => Array.from({ length: universe.size }, (_, i) => universe.ref(i, 'primary')),
    setAlertPolicy: (idOrSlug, policy) => alerts.setPolicy(viewIndex(idOrSlug), policy),
    alertPolicy: (idOrSlug) => alerts.policy(viewIndex(idOrSlug)),
    alertsOf: (idOrSlug) => alerts.alertsOf(viewIndex(idOrSlug)),
    deliveries: () => sender.deliveries(),
    idle: () => sender.idle(),
  };
}
