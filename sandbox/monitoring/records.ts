// API records (Event, DevelopmentSummary, Development) built on demand from the world's columns,
// and the resolution of event identifiers (UUID or slug-with-id-prefix) and development UUIDs.
import type { EventWorld } from './event-world.js';
import { Flag } from './event-world.js';
import {
  developmentDocuments,
  developmentId,
  developmentSlug,
  developmentSubcategories,
  developmentSummary,
  developmentTitle,
  eventId,
  eventIndustry,
  eventSlug,
  eventSummary,
  eventTitle,
} from './event-text.js';
import { Kind, uuidIndex } from './seeded-random.js';
import { CATEGORIES, IMPORTANCE, SUBCATEGORIES, categorySlugs, subcategorySlugs } from './taxonomy.js';
import { rfc3339 } from './time-format.js';
import type { AssetRef, Development, DevelopmentSummary, MonitoringEvent } from './types.js';

export function eventAssets(w: EventWorld, e: number): AssetRef[] {
  return w.assetsOf(e).map((a, k) => w.assets.ref(a, k === 0 ? 'primary' : 'secondary'));
}

function developmentCategories(w: EventWorld, d: number): { intelCategories: string[]; intelSubcategories: string[] } {
  const subs = developmentSubcategories(w, d);
  return {
    intelCategories: [...new Set(subs.map((s) => SUBCATEGORIES[s].category))].map((c) => CATEGORIES[c].slug),
    intelSubcategories: subs.map((s) => SUBCATEGORIES[s].slug),
  };
}

export function developmentSummaryRecord(w: EventWorld, d: number): DevelopmentSummary {
  const c = w.dev.cols;
  return {
    id: developmentId(w, d),
    title: developmentTitle(w, d),
    summary: developmentSummary(w, d),
    startedAt: rfc3339(c.startedAt[d]),
    endedAt: rfc3339(c.endedAt[d]),
    importance: IMPORTANCE[c.importance[d]],
    verified: (c.flags[d] & Flag.verified) !== 0,
    actionable: (c.flags[d] & Flag.actionable) !== 0,
    governance: (c.flags[d] & Flag.governance) !== 0,
    ...developmentCategories(w, d),
    slug: developmentSlug(w, d),
  };
}

export function eventRecord(w: EventWorld, e: number): MonitoringEvent {
  const c = w.ev.cols;
  return {
    id: eventId(w, e),
    slug: eventSlug(w, e),
    title: eventTitle(w, e),
    summary: eventSummary(w, e),
    industry: eventIndustry(w, e),
    developmentCount: c.devCount[e],
    documentCount: c.docCount[e],
    startedAt: rfc3339(c.startedAt[e]),
    endedAt: rfc3339(c.endedAt[e]),
    createdAt: rfc3339(c.createdAt[e]),
    updatedAt: rfc3339(c.updatedAt[e]),
    intelCategories: categorySlugs(c.catMask[e]),
    intelSubcategories: subcategorySlugs(c.subLo[e], c.subHi[e]),
    importance: IMPORTANCE[c.importance[e]],
    verified: (c.flags[e] & Flag.verified) !== 0,
    actionable: (c.flags[e] & Flag.actionable) !== 0,
    governance: (c.flags[e] & Flag.governance) !== 0,
    assets: eventAssets(w, e),
    developments: w.developmentsOf(e).map((d) => developmentSummaryRecord(w, d)),
  };
}

export function developmentRecord(w: EventWorld, d: number): Development {
  const c = w.dev.cols;
  const e = c.event[d];
  const summary = developmentSummaryRecord(w, d);
  return {
    id: summary.id,
    title: summary.title,
    summary: summary.summary,
    industry: eventIndustry(w, e),
    verified: summary.verified,
    intelCategories: summary.intelCategories,
    intelSubcategories: summary.intelSubcategories,
    importance: summary.importance,
    actionable: summary.actionable,
    governance: summary.governance,
    documents: developmentDocuments(w, d),
    startedAt: summary.startedAt,
    endedAt: summary.endedAt,
    createdAt: rfc3339(c.createdAt[d]),
    updatedAt: rfc3339(c.updatedAt[d]),
    assets: eventAssets(w, e),
    event: { id: eventId(w, e), slug: eventSlug(w, e), title: eventTitle(w, e), developmentCount: w.ev.cols.devCount[e] },
  };
}

/** Index of a live event given by UUID or by its exact slug; -1 when unresolvable. */
export function resolveEvent(w: EventWorld, token: string): number {
  const e = uuidIndex(w.seed, Kind.event, token.slice(0, 36));
  if (e < 0 || !w.isLive(e)) return -1;
  return token.length === 36 || token.toLowerCase() === eventSlug(w, e) ? e : -1;
}

/** Index of a development of a live event, by UUID; -1 when unknown or removed. */
export function resolveDevelopment(w: EventWorld, token: string): number {
  const d = token.length === 36 ? uuidIndex(w.seed, Kind.development, token) : -1;
  return d >= 0 && d < w.dev.length && w.isLive(w.dev.cols.event[d]) ? d : -1;
}
