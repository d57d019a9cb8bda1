// Everything the sandbox serves: the seed, the clock, and one compact Collection per resource.
// Lazily built indexes (slug maps, inverse relations, sorted orders) are memoized per epoch; every
// clock advance starts a new epoch and drops them.
import { Collection, IdSpace } from '../core/collection.js';
import { type AssetListings, NO_LISTINGS } from './listing-types.js';
import { sizesFor, type Profile, type Sizes } from './sizes.js';

export interface WorldOptions {
  seed: number;
  scale: number;
  profile: Profile;
  /** Sandbox time at start: with the seed, it fixes every byte served. */
  start: Date;
  /** Which assets are the partner services' (planListings); none by default. */
  listings?: (w: World) => AssetListings;
}

const NO_REMOVE = { update: true, add: true, remove: false };
const MAX_MEMOS = 512;

export class World {
  readonly seed: number;
  readonly scale: number;
  readonly profile: Profile;
  readonly sizes: Sizes;
  readonly startSeconds: number;
  /** Sandbox time, Unix seconds. */
  now: number;
  epoch = 0;

  readonly assets: Collection;
  readonly projects: Collection;
  readonly chains: Collection;
  readonly sectors: Collection;
  readonly groups: Collection;
  readonly industries: Collection;
  readonly glossary: Collection;
  readonly transparency: Collection;
  readonly metrics: Collection;
  readonly secFilings: Collection;
  readonly charts: Collection;
  readonly listings: AssetListings;

  // Distinct id ranges per resource: an id of one resource never finds a record of another.
  readonly ids = {
    assets: new IdSpace(1_000, 3),
    projects: new IdSpace(50_000, 7),
    chains: new IdSpace(900, 11),
    sectors: new IdSpace(10, 1),
    groups: new IdSpace(200, 1),
    industries: new IdSpace(400, 1),
    glossary: new IdSpace(3_000, 2),
    transparency: new IdSpace(70_000, 5),
    metrics: new IdSpace(600, 1),
    charts: new IdSpace(100_000, 13),
  };

  private memos = new Map<string, unknown>();

  constructor(opts: WorldOptions) {
    this.seed = opts.seed;
    this.scale = opts.scale;
    this.profile = opts.profile;
    this.sizes = sizesFor(opts.profile, opts.scale);
    this.startSeconds = Math.floor(opts.start.getTime() / 1000);
    this.now = this.startSeconds;
    const z = this.sizes;
    this.assets = new Collection('assets', z.assets);
    this.projects = new Collection('projects', z.projects);
    this.chains = new Collection('chains', z.chains);
    // Taxonomies are referenced by title from projects and assets: they change but never disappear.
    this.sectors = new Collection('sectors', z.sectors, NO_REMOVE);
    this.groups = new Collection('groups', z.groups, NO_REMOVE);
    this.industries = new Collection('industries', z.industries, NO_REMOVE);
    this.glossary = new Collection('glossary', z.glossary);
    this.transparency = new Collection('transparency', z.transparency);
    this.metrics = new Collection('metrics', z.metrics);
    this.secFilings = new Collection('sec-filings', z.secFilings);
    this.charts = new Collection('charts', z.charts);
    this.listings = opts.listings?.(this) ?? NO_LISTINGS;
  }

  /** Bounded: many distinct queries in one epoch drop the oldest memos, which are rebuilt on demand. */
  memo<T>(key: string, make: () => T): T {
    let v = this.memos.get(key) as T | undefined;
    if (v === undefined) {
      v = make();
      if (this.memos.size >= MAX_MEMOS) this.memos.delete(this.memos.keys().next().value as string);
      this.memos.set(key, v);
    }
    return v;
  }

  /** Called after every change of state: cached orders, indexes and pages are stale. */
  bump(): void {
    this.epoch++;
    this.memos.clear();
  }

  /** Generated records were created and last updated before the sandbox started. */
  baseTimes(rng: { between(a: number, b: number): number }): { created: number; updated: number } {
    const created = Math.floor(rng.between(this.startSeconds - 3 * 365 * 86400, this.startSeconds - 30 * 86400));
    const updated = Math.floor(rng.between(created, this.startSeconds - 3600));
    return { created, updated };
  }
}
