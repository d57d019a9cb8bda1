// Titles, summaries and documents of events and developments, rebuilt from (seed, index, version).
import type { EventWorld } from './event-world.js';
import { NO_SUBCATEGORY } from './event-world.js';
import { Kind, Rng, seededUuid } from './seeded-random.js';
import { SUBCATEGORIES } from './taxonomy.js';
import { INDUSTRIES, QUALIFIERS, SENTENCES, SOURCES, slugify } from './vocabulary.js';

export const eventId = (w: EventWorld, e: number): string => seededUuid(w.seed, Kind.event, e);
export const developmentId = (w: EventWorld, d: number): string => seededUuid(w.seed, Kind.development, d);

export function eventTitle(w: EventWorld, e: number): string {
  const rng = new Rng(w.seed, Kind.event, e, 500);
  const asset = w.assets.name(w.ev.cols.asset0[e]);
  return `${asset} ${SUBCATEGORIES[w.ev.cols.theme[e]].name.toLowerCase()} ${rng.pick(QUALIFIERS)}`;
}

/** The slug-with-id-prefix form: `<event uuid>-<slugified title>`. */
export const eventSlug = (w: EventWorld, e: number): string => `${eventId(w, e)}-${slugify(eventTitle(w, e))}`;

export function eventSummary(w: EventWorld, e: number): string {
  const version = w.ev.cols.version[e];
  const rng = new Rng(w.seed, Kind.event, e, 600 + version);
  if (version === 0 && rng.chance(0.1)) return ''; // the spec allows an empty event summary
  const lines = [`${eventTitle(w, e)}. ${rng.pick(SENTENCES)} ${rng.pick(SENTENCES)}`];
  if (version > 0) lines.push(`Revision ${version}: ${rng.pick(SENTENCES)}`);
  return lines.join(' ');
}

export const eventIndustry = (w: EventWorld, e: number): string => new Rng(w.seed, Kind.event, e, 700).pick(INDUSTRIES);

export function developmentSubcategories(w: EventWorld, d: number): number[] {
  const c = w.dev.cols;
  return c.sub1[d] === NO_SUBCATEGORY ? [c.sub0[d]] : [c.sub0[d], c.sub1[d]];
}

export function developmentTitle(w: EventWorld, d: number): string {
  const rng = new Rng(w.seed, Kind.development, d, 500);
  const e = w.dev.cols.event[d];
  const asset = w.assets.name(rng.pick(w.assetsOf(e)));
  return `${asset}: ${SUBCATEGORIES[w.dev.cols.sub0[d]].name.toLowerCase()} ${rng.pick(QUALIFIERS)}`;
}

export const developmentSlug = (w: EventWorld, d: number): string => `${developmentId(w, d)}-${slugify(developmentTitle(w, d))}`;

/** Markdown; changes with every new version of the development. */
export function developmentSummary(w: EventWorld, d: number): string {
  const version = w.dev.cols.version[d];
  const rng = new Rng(w.seed, Kind.development, d, 600 + version);
  const source = rng.pick(SOURCES);
  const text = [
    `**${developmentTitle(w, d)}**`,
    '',
    `${rng.pick(SENTENCES)} ${rng.pick(SENTENCES)}`,
    '',
    `Source: [${source}](${documentUrl(w, d, 0)})`,
  ];
  if (version > 0) text.push('', `_Updated (revision ${version})_: ${rng.pick(SENTENCES)}`);
  return text.join('\n');
}

export function developmentDocuments(w: EventWorld, d: number): { url: string; title: string }[] {
  const rng = new Rng(w.seed, Kind.development, d, 800);
  return Array.from({ length: w.dev.cols.docs[d] }, (_, k) => ({
    url: documentUrl(w, d, k),
    title: `${rng.pick(SOURCES)}: ${developmentTitle(w, d)}`,
  }));
}

const documentUrl = (w: EventWorld, d: number, k: number): string => `https://news.sandbox.invalid/${developmentId(w, d)}/${k + 1}`;
