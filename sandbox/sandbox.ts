// startSandbox: the world, the HTTP server, the partner's monitoring service and the optional tick.
import type { Route } from './routes/route.js';
import { randomBytes } from 'node:crypto';
import { createMonitoringService, partnerUniverse, type MonitoringChange, type MonitoringService } from './monitoring/index.js';
import { advanceWorld, type ResourceChanges } from './data/advance.js';
import { planListings } from './data/listings.js';
import { World } from './data/world.js';
import { Chaos, type ChaosOptions } from './http/chaos.js';
import { controlHandler } from './http/control.js';
import { ApiServer } from './http/server.js';
import { listRecords } from './records.js';
import { parseQuota, QuotaMeter, type QuotaLimit, type QuotaReport } from './quota/index.js';

/** The real service's allowances: the standard /v1 plan's month, the partner services' minute. */
export const REAL_ALLOWANCES = 'v1=2500/month,monitoring=200/min,tokenUnlocks=200/min';
import type { AlertPolicy } from './webhooks/index.js';
import type { Profile } from './data/sizes.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  seed?: number;
  scale?: number;
  profile?: Profile;
  /** Default: `sbx_` + 24 random hex characters. */
  apiKey?: string;
  chaos?: ChaosOptions;
  /** Limits to enforce, e.g. `v1=2500/month,monitoring=200/min` (periods on the sandbox clock). */
  quota?: string | QuotaLimit[];
  /** Enables the /_sandbox/* control endpoints. */
  control?: boolean;
  /**
   * Sandbox time at start. Default: now (to the second), so an analyst's "last 30 days" has rows; pin it
   * to serve the same bytes again (a seed and a start fix every byte).
   */
  start?: Date;
  /**
   * Wall time in Unix seconds, on which per-minute quotas count (as a gateway's do) while days and months
   * follow the sandbox clock. Tests inject one; the default is the machine's.
   */
  wallClock?: () => number;
  /** Advance the clock by this many seconds every this many real seconds. */
  tickSeconds?: number;
  webhooks?: { timeFactor?: number; defaultPolicy?: AlertPolicy };
  /**
   * How many monitoring views to generate instead of the scale's: a small test sandbox (few events, so few
   * development details to fetch) that still has views with predicates.
   */
  monitoringViews?: number;
  /** Routes served beside the /v1 routes (sandbox/routes/router.ts): a test's made-up list. */
  routes?: readonly Route[];
}

export interface AdvanceOptions {
  seconds: number;
  updateFraction?: number;
  addFraction?: number;
  removeFraction?: number;
}

export interface ChangeReport {
  /** Sandbox times (RFC 3339) before and after. */
  from: string;
  to: string;
  /** Per /v1 resource (names as for records()): keys updated, added, removed. */
  resources: Record<string, ResourceChanges>;
  monitoring: MonitoringChange;
}

export interface Sandbox {
  url: string;
  apiKey: string;
  now(): Date;
  advance(opts: AdvanceOptions): Promise<ChangeReport>;
  setChaos(opts: ChaosOptions | null): void;
  /** The chaos in force (an aimed HTML page shows the answers it has left), null when none. */
  chaos(): ChaosOptions | null;
  /** Replaces the quota limits (null: none); counts are kept. */
  setQuota(quota: string | QuotaLimit[] | null): void;
  /** Removes every limit and zeroes the quota counts. */
  clearQuota(): void;
  /** Per family: limits, use in the current windows, refusals, and whether a limit was ever exceeded. */
  quota(): QuotaReport;
  requestCount(): number;
  resetRequestCount(): void;
  records(resource: string): unknown[];
  /**
   * What a perfect asset crosswalk answers: every token-unlock and monitoring asset (its UUID) with the
   * live `/v1` asset that is the same asset, or null (not on `/v1`, or removed there).
   */
  assetLinks(): { partnerId: string; v1AssetId: number | null }[];
  monitoring: MonitoringService;
  close(): Promise<void>;
}

export const DEFAULT_FRACTIONS = { updateFraction: 0.01, addFraction: 0.005, removeFraction: 0.002 };

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const scale = opts.scale ?? 1;
  if (!(scale > 0)) throw new RangeError('scale must be a number > 0');
  const [seed, profile] = [opts.seed ?? 42, opts.profile ?? 'default'];
  const partner = partnerUniverse(seed, scale, profile);
  const world = new World({ seed, scale, profile, start: opts.start ?? nowToTheSecond(), listings: (w) => planListings(w, partner) });
  const apiKey = opts.apiKey ?? `sbx_${randomBytes(12).toString('hex')}`;
  const now = () => new Date(world.now * 1000);
  const chaos = new Chaos(opts.chaos ?? null);
  const monitoring = createMonitoringService({
    seed: world.seed,
    scale,
    profile: world.profile,
    views: opts.monitoringViews,
    apiKey,
    now,
    webhooks: opts.webhooks,
    payload: (envelope) => chaos.payload(envelope),
  });
  // The real profile is the real service: its sizes and its allowances (unless a quota is given).
  const wallClock = opts.wallClock ?? (() => Date.now() / 1000);
  const quota = new QuotaMeter(() => world.now, toLimits(opts.quota ?? (profile === 'real' ? REAL_ALLOWANCES : null)), wallClock);
  let queue: Promise<unknown> = Promise.resolve();

  const advance = (a: AdvanceOptions): Promise<ChangeReport> => {
    // Advances run one at a time, in call order (the tick and a test may overlap).
    const run = queue.then(() => {
      const fractions = { ...DEFAULT_FRACTIONS, ...definedOnly(a) };
      const from = now();
      const resources = advanceWorld(world, a.seconds, fractions);
      const to = now();
      const change = monitoring.advance(to, fractions);
      return { from: from.toISOString(), to: to.toISOString(), resources, monitoring: change };
    });
    queue = run.catch(() => undefined);
    return run;
  };

  let server: ApiServer;
  const target = {
    now,
    advance,
    setChaos: (c: ChaosOptions | null) => chaos.set(c),
    chaos: () => chaos.current(),
    setQuota: (q: string | QuotaLimit[] | null) => quota.set(toLimits(q)),
    clearQuota: () => quota.clear(),
    quota: () => quota.report(),
    requestCount: () => server.requestCount(),
    resetRequestCount: () => server.resetRequestCount(),
    records: (resource: string) => listRecords(world, resource),
    assetLinks: () =>
      Array.from({ length: partner.size }, (_, m) => {
        const j = world.listings.truth.get(m);
        return { partnerId: partner.id(m), v1AssetId: j !== undefined && world.assets.isLive(j) ? world.ids.assets.idOf(j) : null };
      }),
    views: () => monitoring.views().map(({ id, slug, name }) => ({ id, slug, name })),
  };
  server = new ApiServer({
    world,
    apiKey,
    chaos,
    quota,
    monitoring,
    control: opts.control ? controlHandler(target, apiKey) : null,
    routes: opts.routes ?? [],
  });
  const url = await server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  const tick =
    opts.tickSeconds && opts.tickSeconds > 0
      ? setInterval(() => void advance({ seconds: opts.tickSeconds! }).catch(() => undefined), opts.tickSeconds * 1000)
      : null;
  tick?.unref();

  return {
    url,
    apiKey,
    ...target,
    monitoring,
    async close() {
      if (tick) clearInterval(tick);
      await Promise.all([server.close(), monitoring.close()]);
    },
  };
}

function nowToTheSecond(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

function toLimits(q: string | QuotaLimit[] | null): QuotaLimit[] | null {
  return typeof q === 'string' ? parseQuota(q) : q;
}

function definedOnly(a: AdvanceOptions): Partial<typeof DEFAULT_FRACTIONS> {
  const out: Partial<typeof DEFAULT_FRACTIONS> = {};
  if (a.updateFraction !== undefined) out.updateFraction = a.updateFraction;
  if (a.addFraction !== undefined) out.addFraction = a.addFraction;
  if (a.removeFraction !== undefined) out.removeFraction = a.removeFraction;
  return out;
}
