// Request handling for /token-unlocks/v1/* and /monitoring/v2/*: authentication, envelopes,
// status codes. Any other path is not ours (null).
import { timingSafeEqual } from 'node:crypto';
import type { EventWorld } from './event-world.js';
import { QueryError, eventsPredicate, searchParam } from './event-query.js';
import type { ViewDefinition } from './monitoring-views.js';
import { resolveView, viewPredicate, viewRecord } from './monitoring-views.js';
import { pageNumber, pageSize, paginate } from './paging.js';
import { type Predicate, matchingEvents } from './predicate.js';
import { QUERY_PARAMS } from './query-params.js';
import { developmentRecord, eventRecord, resolveDevelopment } from './records.js';
import { CATEGORIES } from './taxonomy.js';
import type { TokenUnlocks } from './token-unlocks.js';
import type { HandleRequest, HandleResult } from './types.js';

export interface RouteContext {
  apiKey: string;
  world: EventWorld;
  views: readonly ViewDefinition[];
  tokenUnlocks: TokenUnlocks;
  /** Sandbox time, Unix seconds. */
  now: () => number;
}

const AUTH_HEADER = 'x-service-api-key';

function presentedKey(headers: HandleRequest['headers']): string | undefined {
  const name = Object.keys(headers).find((k) => k.toLowerCase() === AUTH_HEADER);
  const value = name === undefined ? undefined : headers[name];
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined; // two keys: ambiguous, rejected
  return value;
}

function authorized(expected: string, headers: HandleRequest['headers']): boolean {
  const given = presentedKey(headers);
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ok = (data: unknown, extra: object = {}): HandleResult => ({ status: 200, body: { error: null, data, ...extra } });
const fail = (status: number, error: string): HandleResult => ({ status, body: { error, data: null } });

function segments(path: string): string[] | null {
  try {
    return path
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
  } catch {
    return null;
  }
}

export function route(ctx: RouteContext, req: HandleRequest): HandleResult | null {
  const parts = segments(req.path);
  if (parts === null) return req.path.startsWith('/token-unlocks/') || req.path.startsWith('/monitoring/') ? fail(404, 'not found') : null;
  if (parts[0] === 'token-unlocks') {
    if (!authorized(ctx.apiKey, req.headers)) return fail(401, 'invalid auth mechanism');
    if (parts.length === 3 && parts[1] === 'v1' && parts[2] === 'assets') return ok(ctx.tokenUnlocks.list(req.query));
    return fail(404, `not found: ${req.path}`);
  }
  if (parts[0] !== 'monitoring') return null;
  if (!authorized(ctx.apiKey, req.headers)) return fail(401, 'missing or invalid API key (X-Service-API-Key)');
  try {
    return monitoring(ctx, parts.slice(1), req) ?? fail(404, `not found: ${req.path}`);
  } catch (err) {
    if (err instanceof QueryError) return fail(400, err.message);
    throw err;
  }
}

function monitoring(ctx: RouteContext, parts: string[], req: HandleRequest): HandleResult | null {
  if (parts[0] !== 'v2') return null;
  const [resource, id, sub] = parts.slice(1);
  const w = ctx.world;
  if (parts.length === 2 && resource === 'events') return eventPage(w, eventsPredicate(w, req.query), req.query, QUERY_PARAMS.events);
  if (parts.length === 2 && resource === 'categories') return ok(CATEGORIES);
  if (parts.length === 3 && resource === 'developments') {
    const d = resolveDevelopment(w, id);
    return d < 0 ? fail(404, `development "${id}" not found`) : ok(developmentRecord(w, d));
  }
  if (resource === 'monitoring-views' && (parts.length === 3 || (parts.length === 4 && sub === 'events'))) {
    const v = resolveView(w.seed, ctx.views, id);
    if (v < 0) return fail(404, `monitoring view "${id}" not found`);
    if (parts.length === 3) return ok(viewRecord(w, ctx.views[v], ctx.now()));
    const n = QUERY_PARAMS.viewEvents;
    const predicate: Predicate = { ...viewPredicate(w.assets, ctx.views[v]), search: searchParam(req.query, n.search) };
    return eventPage(w, predicate, req.query, n);
  }
  return null;
}

function eventPage(w: EventWorld, p: Predicate, query: URLSearchParams, n: { limit: string; page: string }): HandleResult {
  const { rows, metadata } = paginate(matchingEvents(w, p), pageSize(query.get(n.limit)), pageNumber(query.get(n.page)));
  return ok(
    rows.map((e) => eventRecord(w, e)),
    { metadata },
  );
}
