// /v1/market-stats, /v1/metrics(/{identifier}), /v1/sec/filings(/{accessionNumber}).
import { DAY, parseIsoDate } from '../core/dates.js';
import { slugIndex } from '../core/text.js';
import { statsCount, statsIndexAt, statsRow, type Grain } from '../data/market-stats.js';
import { metricCovers, metricIdentifier, metricJson, metricSeries } from '../data/metrics.js';
import { projectIdentity } from '../data/project-identity.js';
import { filingIdentity, filingIndexOf, filingJson } from '../data/sec-filings.js';
import { badRequest, notFound } from '../http/http-error.js';
import { limit, PAGE, parseQuery } from '../http/params.js';
import { envelopeTotal, liveOf, ordered, pageOf } from './list.js';
import { resolveIdOrSlug } from './resolve.js';
import type { Route, RouteContext } from './route.js';
import type { World } from '../data/world.js';

const DESC_FIRST = { type: 'enum', values: ['asc', 'desc'], default: 'desc' } as const;

const STATS = {
  page: PAGE,
  limit: limit(100, 100),
  start_date: { type: 'date' },
  end_date: { type: 'date' },
  group_by: { type: 'enum', values: ['day', 'hour'], default: 'day' },
  query: { type: 'json', max: 65535 }, // content "not shown": validated as JSON, not applied
  order_by: { type: 'enum', values: ['id', 'date'], default: 'date' },
  order_dir: DESC_FIRST,
} as const;

/** Ids and dates grow together, so both orders are a range of row numbers, read in either direction. */
function marketStats({ w, query }: RouteContext) {
  const q = parseQuery(query, STATS);
  const grain = q.group_by as Grain;
  const lo = q.start_date ? statsIndexAt(w, grain, parseIsoDate(q.start_date)!) : 0;
  const hi = q.end_date ? statsIndexAt(w, grain, parseIsoDate(q.end_date)! + DAY) : statsCount(w, grain);
  const n = Math.max(0, hi - lo);
  const desc = q.order_dir === 'desc';
  const at = (k: number) => (desc ? hi - 1 - k : lo + k);
  const start = (q.page! - 1) * q.limit!;
  const data = [];
  for (let k = start; k < Math.min(n, start + q.limit!); k++) data.push(statsRow(w, grain, at(k)));
  return { page: q.page!, total: envelopeTotal(n), data };
}

function resolveProjectToken(w: World, token: string): number {
  const i = /^\d+$/.test(token) ? w.ids.projects.indexOf(Number(token)) : slugIndex(token);
  if (i < 0 || !w.projects.isLive(i)) return -1;
  return /^\d+$/.test(token) || projectIdentity(w, i).slug === token ? i : -1;
}

const METRICS = {
  page: PAGE,
  limit: limit(1000, 100),
  project: { type: 'strings', maxLength: 255 },
  identifier: { type: 'strings', maxLength: 255 },
} as const;

function listMetrics({ w, query }: RouteContext) {
  const q = parseQuery(query, METRICS);
  const projects = q.project?.map((t) => resolveProjectToken(w, t));
  const identifiers = q.identifier && new Set(q.identifier);
  const idx = ordered(w, {
    key: ['metrics', q.project, q.identifier].join('|'),
    candidates: liveOf(w.metrics),
    filter: (m) =>
      (!identifiers || identifiers.has(metricIdentifier(w, m))) && (!projects || projects.some((j) => j >= 0 && metricCovers(w, m, j))),
  });
  return pageOf(idx, q.page!, q.limit!, (m) => metricJson(w, m));
}

/** `{ [project as given]: [{date, value}] }`; a project without data (or unknown) maps to []. */
function metricData({ w, params, query }: RouteContext) {
  const q = parseQuery(query, { project: { type: 'strings', maxLength: 255, required: true } });
  const m = resolveIdOrSlug('metric', w.metrics, w.ids.metrics, params.identifier, (i) => metricIdentifier(w, i));
  const out: Record<string, unknown> = {};
  for (const token of q.project!) {
    const j = resolveProjectToken(w, token);
    out[token] = j >= 0 && metricCovers(w, m, j) ? metricSeries(w, m, j) : [];
  }
  return out;
}

const FILINGS = {
  page: PAGE,
  limit: limit(100, 100),
  form_type: { type: 'string', max: 255 },
  company: { type: 'string', max: 255 },
  category: { type: 'string', max: 255 },
  start_filing_date: { type: 'date' },
  end_filing_date: { type: 'date' },
  order_by: { type: 'enum', values: ['company', 'filingDate'], default: 'filingDate' },
  order_dir: DESC_FIRST,
} as const;

/** form_type and category match exactly (case-insensitive); company is a case-insensitive substring. */
function listFilings({ w, query }: RouteContext) {
  const q = parseQuery(query, FILINGS);
  const form = q.form_type?.toLowerCase();
  const category = q.category?.toLowerCase();
  const company = q.company?.toLowerCase();
  const idx = ordered(w, {
    key: ['sec', form, category, company, q.start_filing_date, q.end_filing_date, q.order_by, q.order_dir].join('|'),
    candidates: liveOf(w.secFilings),
    filter: (k) => {
      const f = filingIdentity(w, k);
      if (form !== undefined && f.formType.toLowerCase() !== form) return false;
      if (category !== undefined && f.category.toLowerCase() !== category) return false;
      if (company !== undefined && !f.company.toLowerCase().includes(company)) return false;
      if (q.start_filing_date && f.filingDate < q.start_filing_date) return false;
      return !q.end_filing_date || f.filingDate <= q.end_filing_date;
    },
    sortKey: q.order_by === 'company' ? (k) => filingIdentity(w, k).company.toLowerCase() : (k) => filingIdentity(w, k).filingDate,
    dir: q.order_dir as 'asc' | 'desc',
  });
  return pageOf(idx, q.page!, q.limit!, (k) => filingJson(w, k));
}

function filing({ w, params }: RouteContext) {
  const k = filingIndexOf(params.accessionNumber);
  if (k < 0) throw badRequest(['accessionNumber must look like 0000320193-25-000073']);
  if (!w.secFilings.isLive(k) || filingIdentity(w, k).accessionNumber !== params.accessionNumber) {
    throw notFound(`filing ${params.accessionNumber} not found`);
  }
  return filingJson(w, k);
}

export const marketRoutes: Route[] = [
  { path: '/v1/market-stats', auth: 'open', handle: marketStats },
  { path: '/v1/metrics', auth: 'api-key', handle: listMetrics },
  { path: '/v1/metrics/:identifier', auth: 'api-key', handle: metricData },
  { path: '/v1/sec/filings', auth: 'api-key', handle: listFilings },
  { path: '/v1/sec/filings/:accessionNumber', auth: 'api-key', handle: filing },
];
