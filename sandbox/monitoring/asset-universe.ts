// The monitoring asset universe: AssetRef data built on demand from (seed, index), plus the few
// columns the event filters read (sector, subsector, pre-TGE, ecosystem networks).
import { Kind, Rng, hash32, seededUuid, uuidIndex } from './seeded-random.js';
import { NAME_SUFFIXES, NETWORK_COUNT, SECTORS, SYLLABLES, WELL_KNOWN_ASSETS, WELL_KNOWN_SECTORS, slugify } from './vocabulary.js';

export interface AssetRef {
  id: string;
  name: string;
  slug: string;
  symbol: string;
  class: 'primary' | 'secondary';
}

const NAME_SPACE = SYLLABLES.length ** 4;

function sectorIndices([sector, subsector]: readonly [string, string]): [number, number] {
  const s = SECTORS.findIndex((x) => x.name === sector);
  return [s, SECTORS[s].subsectors.indexOf(subsector)];
}

export class AssetUniverse {
  readonly sector: Uint8Array;
  readonly subsector: Uint8Array;
  readonly preTge: Uint8Array;
  /** Bit n set: the asset lives in the ecosystem of network asset n (n < NETWORK_COUNT). */
  readonly networks: Uint16Array;
  private slugIndex: Map<string, number> | null = null;

  constructor(
    private readonly seed: number,
    readonly size: number,
  ) {
    if (size > NAME_SPACE) throw new RangeError(`asset universe of ${size} exceeds ${NAME_SPACE} names`);
    this.sector = new Uint8Array(size);
    this.subsector = new Uint8Array(size);
    this.preTge = new Uint8Array(size);
    this.networks = new Uint16Array(size);
    for (let i = 0; i < size; i++) {
      const rng = new Rng(seed, Kind.asset, i);
      if (i < NETWORK_COUNT) {
        this.networks[i] = 1 << i;
        this.subsector[i] = i >= 8 ? 1 : 0; // sector 0 (Networks): layer 1, or layer 2 for the last two
        continue;
      }
      this.sector[i] = rng.int(SECTORS.length);
      this.subsector[i] = rng.int(SECTORS[this.sector[i]].subsectors.length);
      this.preTge[i] = i >= WELL_KNOWN_ASSETS.length && rng.chance(0.08) ? 1 : 0;
      // Ethereum hosts most ecosystems; some assets live on a second network too.
      this.networks[i] = (1 << (rng.chance(0.5) ? 1 : rng.int(NETWORK_COUNT))) | (rng.chance(0.2) ? 1 << rng.int(NETWORK_COUNT) : 0);
      const known = WELL_KNOWN_SECTORS[i - NETWORK_COUNT];
      if (known) [this.sector[i], this.subsector[i]] = sectorIndices(known);
    }
  }

  id(i: number): string {
    return seededUuid(this.seed, Kind.asset, i);
  }

  name(i: number): string {
    if (i < WELL_KNOWN_ASSETS.length) return WELL_KNOWN_ASSETS[i][0];
    const syllables = this.syllables(i);
    const word = syllables.join('');
    return word[0].toUpperCase() + word.slice(1) + NAME_SUFFIXES[hash32(this.seed, Kind.asset, i, 9) % NAME_SUFFIXES.length];
  }

  symbol(i: number): string {
    if (i < WELL_KNOWN_ASSETS.length) return WELL_KNOWN_ASSETS[i][1];
    return this.syllables(i)
      .map((s) => s[0].toUpperCase())
      .join('');
  }

  slug(i: number): string {
    return slugify(this.name(i));
  }

  ref(i: number, cls: AssetRef['class']): AssetRef {
    return { id: this.id(i), name: this.name(i), slug: this.slug(i), symbol: this.symbol(i), class: cls };
  }

  logoUrl(i: number): string {
    return `https://assets.sandbox.invalid/logos/${this.slug(i)}.png`;
  }

  sectorName(i: number): string {
    return SECTORS[this.sector[i]].name;
  }

  subsectorName(i: number): string {
    return SECTORS[this.sector[i]].subsectors[this.subsector[i]];
  }

  /** Index of an asset given by UUID or slug; -1 when nothing matches. */
  resolve(token: string): number {
    const byId = uuidIndex(this.seed, Kind.asset, token);
    if (byId >= 0) return byId < this.size ? byId : -1;
    this.slugIndex ??= new Map(Array.from({ length: this.size }, (_, i) => [this.slug(i), i]));
    return this.slugIndex.get(token.toLowerCase()) ?? -1;
  }

  private syllables(i: number): string[] {
    // An odd multiplier permutes the 2^20 name space, so every index gets its own name.
    let n = (Math.imul(i, 40503) + (hash32(this.seed, 77) & (NAME_SPACE - 1))) & (NAME_SPACE - 1);
    const out: string[] = [];
    for (let k = 0; k < 4; k++) {
      out.push(SYLLABLES[n % SYLLABLES.length]);
      n = Math.floor(n / SYLLABLES.length);
    }
    return out;
  }
}
