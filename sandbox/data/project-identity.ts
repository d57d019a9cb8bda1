// A project's identity and the ShortProject shape that assets embed: below both the asset and the
// project documents, so neither has to import the other to name a project.
import { Rng } from '../core/prng.js';
import { indexedSlug, properName } from '../core/text.js';
import { assetIdentity } from './assets.js';
import { taxonomyIndexFor } from './taxonomy.js';
import type { World } from './world.js';

type Json = Record<string, unknown>;

export interface ProjectIdentity {
  index: number;
  id: number;
  title: string;
  slug: string;
  imageUrl: string | null;
  assetIndex: number | null;
  parentIndex: number | null;
  sectorIndex: number;
  groupIndex: number;
  industryIndex: number;
}

export function projectIdentity(w: World, j: number): ProjectIdentity {
  const rng = new Rng(w.seed, 'project', j);
  const assetIndex = j < w.projects.baseCount ? j : null;
  const title = assetIndex !== null ? assetIdentity(w, assetIndex).title : `${properName(rng)} Labs`;
  return {
    index: j,
    id: w.ids.projects.idOf(j),
    title,
    slug: indexedSlug(title, j),
    imageUrl: rng.orNull(0.05, `https://img.sandbox.invalid/projects/${j}.png`),
    assetIndex,
    parentIndex: j >= 20 && rng.chance(0.08) ? rng.int(Math.min(j, 50)) : null,
    sectorIndex: taxonomyIndexFor(w, 'sectors', 'project', j),
    groupIndex: taxonomyIndexFor(w, 'groups', 'project', j),
    industryIndex: taxonomyIndexFor(w, 'industries', 'project', j),
  };
}

export function shortProject(w: World, j: number): Json {
  const p = projectIdentity(w, j);
  return { id: p.id, title: p.title, slug: p.slug, image_url: p.imageUrl };
}
