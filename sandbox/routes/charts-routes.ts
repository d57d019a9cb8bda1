// /v1/charts and the data rows of one chart (by id, or by dashboard slug + chart slug).
import { slugIndex } from '../core/text.js';
import {
  chartDashboards,
  chartJson,
  chartRow,
  chartRowCount,
  chartSlug,
  chartTitle,
  dashboardCount,
  dashboardSlug,
  dashboardTitle,
} from '../data/charts.js';
import { notFound } from '../http/http-error.js';
import { limit, ORDER_DIR, PAGE, parseQuery } from '../http/params.js';
import { envelopeTotal, liveOf, ordered, pageOf, sortIndices, type SortValue } from './list.js';
import type { Route, RouteContext } from './route.js';
import type { World } from '../data/world.js';

type Row = Record<string, unknown>;

function listCharts({ w, query }: RouteContext) {
  const q = parseQuery(query, { page: PAGE, limit: limit(100, 100), search: { type: 'string', max: 255 } });
  const needle = q.search?.toLowerCase();
  const idx = ordered(w, {
    key: `charts|${needle}`,
    candidates: liveOf(w.charts),
    filter:
      needle === undefined
        ? undefined
        : (c) =>
            (chartTitle(w, c) ?? '').toLowerCase().includes(needle) ||
            chartDashboards(w, c).some((d) => dashboardTitle(w, d).toLowerCase().includes(needle)),
  });
  return pageOf(idx, q.page!, q.limit!, (c) => chartJson(w, c));
}

function chartById(w: World, token: string): number {
  const i = /^\d+$/.test(token) ? w.ids.charts.indexOf(Number(token)) : -1;
  if (i >= 0 && w.charts.isLive(i)) return i;
  throw notFound(`chart '${token}' not found`);
}

function chartByPath(w: World, dashboard: string, slug: string): number {
  const d = slugIndex(dashboard);
  const c = slugIndex(slug);
  const ok =
    d >= 0 &&
    d < dashboardCount(w) &&
    dashboardSlug(w, d) === dashboard &&
    w.charts.isLive(c) &&
    chartSlug(w, c) === slug &&
    chartDashboards(w, c).includes(d);
  if (!ok) throw notFound(`chart '${dashboard}/${slug}' not found`);
  return c;
}

const DATA = {
  page: PAGE,
  limit: limit(100000, 10000),
  search: { type: 'string', max: 255 },
  select: { type: 'strings', maxLength: 255 },
  order_by: { type: 'string', max: 255 },
  order_dir: ORDER_DIR,
} as const;

function getPath(row: unknown, path: string): unknown {
  let v = row;
  for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Row)[part] : undefined;
  return v;
}

function matchesDeep(v: unknown, needle: string): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'object') return Object.values(v as Row).some((x) => matchesDeep(x, needle));
  return String(v).toLowerCase().includes(needle);
}

/** `select` semantics are "not shown": we keep the listed properties (dotted paths reach nested ones). */
function project(row: Row, select: readonly string[]): Row {
  const out: Row = {};
  for (const path of select) {
    const v = getPath(row, path);
    if (v !== undefined) out[path] = v;
  }
  return out;
}

function chartData(w: World, c: number, query: URLSearchParams) {
  const q = parseQuery(query, DATA);
  const n = chartRowCount(w, c);
  const needle = q.search?.toLowerCase();
  const shape = (r: number) => {
    const row = chartRow(w, c, r);
    return q.select ? project(row, q.select) : row;
  };
  const start = (q.page! - 1) * q.limit!;
  if (needle === undefined && q.order_by === undefined) {
    const data = [];
    const from = q.order_dir === 'desc' ? n - 1 - start : start;
    for (let k = 0; k < Math.min(q.limit!, n - start); k++) data.push(shape(q.order_dir === 'desc' ? from - k : from + k));
    return { page: q.page!, total: envelopeTotal(n), data };
  }
  const idx = w.memo(`chart-data|${c}|${needle}|${q.order_by}|${q.order_dir}`, () => {
    let rows = Int32Array.from({ length: n }, (_, r) => r);
    if (needle !== undefined) rows = rows.filter((r) => matchesDeep(chartRow(w, c, r), needle));
    if (q.order_by === undefined) return q.order_dir === 'desc' ? rows.reverse() : rows;
    const path = q.order_by;
    return sortIndices(rows, (r) => sortable(getPath(chartRow(w, c, r), path)), q.order_dir as 'asc' | 'desc');
  });
  return pageOf(idx, q.page!, q.limit!, shape);
}

function sortable(v: unknown): SortValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

export const chartRoutes: Route[] = [
  { path: '/v1/charts', auth: 'charts', handle: listCharts },
  {
    path: '/v1/charts/:visualizationIdOrDashboardSlug/data',
    auth: 'charts',
    handle: ({ w, params, query }) => chartData(w, chartById(w, params.visualizationIdOrDashboardSlug), query),
  },
  {
    path: '/v1/charts/:visualizationIdOrDashboardSlug/:visualizationSlug/data',
    auth: 'charts',
    handle: ({ w, params, query }) => chartData(w, chartByPath(w, params.visualizationIdOrDashboardSlug, params.visualizationSlug), query),
  },
];
