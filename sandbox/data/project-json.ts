// Projects: relations (asset, parent, children, chains) and the Project shape.
import type { Expand } from '../core/expand.js';
import { Rng } from '../core/prng.js';
import { paragraph, sentence } from '../core/text.js';
import { assetIdentity, assetValues } from './assets.js';
import { childAssetJson, projectAssetJson } from './asset-json.js';
import { projectIdentity, shortProject, type ProjectIdentity } from './project-identity.js';
import { taxonomySlug, taxonomyTitle } from './taxonomy.js';
import type { World } from './world.js';

type Json = Record<string, unknown>;

const LEADERBOARDS = ['top-100', 'defi-leaders', 'trending', 'new-listings', 'ecosystem-builders', 'most-audited'];

export function projectSectorSlug(w: World, p: ProjectIdentity): string {
  return taxonomySlug(w, 'sectors', p.sectorIndex);
}

export function projectGroupSlug(w: World, p: ProjectIdentity): string {
  return taxonomySlug(w, 'groups', p.groupIndex);
}

export function projectIndustrySlug(w: World, p: ProjectIdentity): string {
  return taxonomySlug(w, 'industries', p.industryIndex);
}

/** Live children of every live project, built once per epoch. */
export function projectChildren(w: World): Map<number, number[]> {
  return w.memo('project-children', () => {
    const out = new Map<number, number[]>();
    for (const j of w.projects.live()) {
      const parent = projectIdentity(w, j).parentIndex;
      if (parent === null || !w.projects.isLive(parent)) continue;
      const list = out.get(parent) ?? [];
      list.push(j);
      out.set(parent, list);
    }
    return out;
  });
}

/** The chains a project is deployed on (indices into chains). */
export function projectChainIndices(w: World, j: number): number[] {
  const rng = new Rng(w.seed, 'project-chains', j);
  const n = 1 + rng.int(3);
  const out = new Set<number>();
  for (let k = 0; k < n; k++) out.add(rng.int(w.chains.baseCount));
  return [...out].sort((a, b) => a - b);
}

export function projectJson(w: World, j: number, expand: Expand): Json {
  const p = projectIdentity(w, j);
  const coll = w.projects;
  const rng = new Rng(w.seed, 'project-text', j);
  const vr = new Rng(w.seed, 'project-v', j, coll.version(j));
  const base = w.baseTimes(rng);
  const leaderboards = LEADERBOARDS.filter(() => rng.chance(0.25));
  const out: Json = {
    id: p.id,
    title: p.title,
    tagline: vr.orNull(0.1, sentence(vr, 4, 9)),
    description: vr.orNull(0.1, paragraph(vr, 1 + vr.int(4))),
    slug: p.slug,
    url: rng.orNull(0.1, `https://${p.slug}.sandbox.invalid`),
    image_url: p.imageUrl,
    updated_at: coll.changedAt(j) || (rng.chance(0.03) ? null : base.updated),
    force_searchable: rng.chance(0.05),
    industry: taxonomyTitle(w, 'industries', p.industryIndex),
    sector: taxonomyTitle(w, 'sectors', p.sectorIndex),
    group: taxonomyTitle(w, 'groups', p.groupIndex),
    leaderboards,
  };
  if (expand.has('asset')) {
    out.asset = p.assetIndex !== null && w.assets.isLive(p.assetIndex) ? projectAssetJson(w, p.assetIndex, expand.sub('asset')) : null;
  }
  if (expand.has('parent_project')) {
    out.parent_project = p.parentIndex !== null && w.projects.isLive(p.parentIndex) ? shortProject(w, p.parentIndex) : null;
  }
  if (expand.has('child_projects')) {
    const sub = expand.sub('child_projects');
    out.child_projects = (projectChildren(w).get(j) ?? []).map((c) => {
      const child: Json = shortProject(w, c);
      if (sub.has('asset')) {
        const ai = projectIdentity(w, c).assetIndex;
        child.asset = ai !== null && w.assets.isLive(ai) ? childAssetJson(w, ai, sub.sub('asset')) : null;
      }
      return child;
    });
  }
  return out;
}

/** Market cap of a project's asset, for `order_by=asset.marketCap.usd`. */
export function projectMarketCap(w: World, j: number): number | null {
  const ai = projectIdentity(w, j).assetIndex;
  if (ai === null || !w.assets.isLive(ai)) return null;
  return assetValues(w, assetIdentity(w, ai)).marketCap.usd;
}
