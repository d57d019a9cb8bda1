// Moves the sandbox clock and changes a seeded share of every resource: updates (new version and
// updated_at), additions and removals, reported by the key each resource is mirrored by.
import { Rng } from '../core/prng.js';
import { statsChanges } from './market-stats.js';
import { filingIdentity } from './sec-filings.js';
import type { Collection, Fractions } from '../core/collection.js';
import type { World } from './world.js';

export type RecordKey = number | string;

export interface ResourceChanges {
  updated: RecordKey[];
  added: RecordKey[];
  removed: RecordKey[];
}

/** Collection-backed resources, by the name `records()` and reports use, with their record key. */
export function changeableResources(w: World): [string, Collection, (i: number) => RecordKey][] {
  return [
    ['assets', w.assets, (i) => w.ids.assets.idOf(i)],
    ['projects', w.projects, (i) => w.ids.projects.idOf(i)],
    ['chains', w.chains, (i) => w.ids.chains.idOf(i)],
    ['sectors', w.sectors, (i) => w.ids.sectors.idOf(i)],
    ['groups', w.groups, (i) => w.ids.groups.idOf(i)],
    ['industries', w.industries, (i) => w.ids.industries.idOf(i)],
    ['glossary', w.glossary, (i) => w.ids.glossary.idOf(i)],
    ['transparency', w.transparency, (i) => w.ids.transparency.idOf(i)],
    ['metrics', w.metrics, (i) => w.ids.metrics.idOf(i)],
    ['sec-filings', w.secFilings, (i) => filingIdentity(w, i).accessionNumber],
    ['charts', w.charts, (i) => w.ids.charts.idOf(i)],
  ];
}

export function advanceWorld(w: World, seconds: number, fractions: Fractions): Record<string, ResourceChanges> {
  if (!(seconds >= 0)) throw new RangeError('advance: seconds must be a number >= 0');
  for (const f of [fractions.updateFraction, fractions.addFraction, fractions.removeFraction]) {
    if (!(f >= 0 && f <= 1)) throw new RangeError('advance: fractions must be between 0 and 1');
  }
  const from = w.now;
  const to = from + Math.floor(seconds);
  const out: Record<string, ResourceChanges> = {};
  for (const [name, coll, keyOf] of changeableResources(w)) {
    const c = coll.advance(to, fractions, new Rng(w.seed, 'advance', w.epoch, name));
    // Keys are read after the change: an added filing's accession number depends on its birth date.
    out[name] = { updated: c.updated.map(keyOf), added: c.added.map(keyOf), removed: c.removed.map(keyOf) };
  }
  out['market-stats'] = { ...statsChanges(w, from, to), removed: [] };
  w.now = to;
  w.bump();
  return out;
}
