// Token-unlock coverage: one record per covered asset (the id is the asset's UUID), built on
// demand from (seed, index, version). Filters are OR within a parameter; paging is ignored.
import type { AssetUniverse } from './asset-universe.js';
import { ColumnTable } from './column-table.js';
import { DAY } from './event-world.js';
import { QUERY_PARAMS, listParam } from './query-params.js';
import { Kind, Rng, countOf, sample } from './seeded-random.js';
import { rfc3339 } from './time-format.js';
import type { AdvanceOptions, IdChanges, TokenUnlockAsset } from './types.js';
import { UNLOCK_TAGS } from './vocabulary.js';

const YEAR = 365 * DAY;

export class TokenUnlocks {
  private readonly rows = new ColumnTable({ asset: Uint32Array, version: Uint16Array, removed: Uint8Array }, 0);
  private nextAsset: number;

  constructor(
    private readonly seed: number,
    private readonly universe: AssetUniverse,
    count: number,
    private readonly anchor: number,
  ) {
    const n = Math.min(count, universe.size);
    for (let i = 0; i < n; i++) {
      const row = this.rows.addRow(); // before reading `cols`: adding a row may reallocate them
      this.rows.cols.asset[row] = i;
    }
    this.nextAsset = n;
  }

  record(i: number): TokenUnlockAsset {
    const a = this.rows.cols.asset[i];
    const version = this.rows.cols.version[i];
    const u = this.universe;
    const stable = new Rng(this.seed, Kind.tokenUnlock, i);
    const genesis = Math.floor((this.anchor - stable.int(6 * YEAR)) / DAY) * DAY;
    const vary = new Rng(this.seed, Kind.tokenUnlock, i, 100 + version);
    const tags = vary.chance(0.2) ? null : [...new Set(Array.from({ length: 1 + vary.int(3) }, () => vary.pick(UNLOCK_TAGS)))];
    return {
      id: u.id(a),
      serialId: i + 1,
      symbol: u.symbol(a),
      name: u.name(a),
      genesisDate: rfc3339(genesis),
      projectedEndDate: rfc3339(genesis + (1 + stable.int(6)) * YEAR + version * 30 * DAY),
      slug: u.slug(a),
      category: u.sectorName(a),
      sector: u.subsectorName(a),
      tags,
      otherInfo: vary.chance(0.5)
        ? null
        : `Schedule revision ${version}: ${vary.int(40) + 5}% of supply vests linearly after a ${vary.int(12) + 1}-month cliff.`,
    };
  }

  /** All live records, by serialId. */
  all(): TokenUnlockAsset[] {
    return this.live().map((i) => this.record(i));
  }

  /** The full matching set; UUIDs only for ids (slugs match nothing); names case-insensitive. */
  list(query: URLSearchParams): TokenUnlockAsset[] {
    const n = QUERY_PARAMS.tokenUnlocks;
    const lower = (name: string): Set<string> => new Set(listParam(query, name).map((v) => v.toLowerCase()));
    const ids = lower(n.assetIds),
      categories = lower(n.category),
      sectors = lower(n.sectors),
      tags = lower(n.tags);
    return this.all().filter(
      (r) =>
        (ids.size === 0 || ids.has(r.id)) &&
        (categories.size === 0 || categories.has(r.category.toLowerCase())) &&
        (sectors.size === 0 || sectors.has(r.sector.toLowerCase())) &&
        (tags.size === 0 || (r.tags ?? []).some((t) => tags.has(t.toLowerCase()))),
    );
  }

  advance(rng: Rng, opts: AdvanceOptions): IdChanges {
    const live = this.live();
    const removed = sample(rng, live, countOf(opts.removeFraction, live.length));
    for (const i of removed) this.rows.cols.removed[i] = 1;
    const gone = new Set(removed);
    const updated = sample(
      rng,
      live.filter((i) => !gone.has(i)),
      countOf(opts.updateFraction, live.length - removed.length),
    );
    for (const i of updated) this.rows.cols.version[i]++;
    const added: number[] = [];
    for (let k = countOf(opts.addFraction, live.length); k > 0 && this.nextAsset < this.universe.size; k--) {
      const i = this.rows.addRow();
      this.rows.cols.asset[i] = this.nextAsset++;
      added.push(i);
    }
    const ids = (list: number[]): string[] => list.map((i) => this.universe.id(this.rows.cols.asset[i]));
    return { added: ids(added), updated: ids(updated), removed: ids(removed) };
  }

  private live(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.rows.length; i++) if (this.rows.cols.removed[i] === 0) out.push(i);
    return out;
  }
}
