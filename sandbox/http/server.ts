// The sandbox's HTTP server (node:http, no framework): /health, the /v1 routes, the partner's
// monitoring and token-unlock handler, the optional /_sandbox control API, quotas and chaos on every
// API path.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAuth } from './auth.js';
import type { Chaos, Fault } from './chaos.js';
import { HttpError } from './http-error.js';
import { ResponseCache, type CachedResponse } from './response-cache.js';
import { quotaFamily, quotaRefusal, rateLimitHeaders, type QuotaMeter } from '../quota/index.js';
import { RawBody } from '../routes/route.js';
import { Router, v1Routes } from '../routes/router.js';
import type { Route } from '../routes/route.js';
import type { World } from '../data/world.js';
import type { HandleRequest, HandleResult } from '../monitoring/index.js';

const JSON_TYPE = 'application/json; charset=utf-8';

export interface MonitoringHandler {
  handle(req: HandleRequest): HandleResult | null;
}

/** Handles /_sandbox/* when control is enabled; `body` is the parsed JSON request body (or undefined). */
export type ControlHandler = (
  method: string,
  path: string,
  body: unknown,
  headers: IncomingMessage['headers'],
) => Promise<{ status: number; body: unknown }>;

export interface ServerDeps {
  world: World;
  apiKey: string;
  chaos: Chaos;
  /** Counts and limits requests per family on the world's clock. */
  quota: QuotaMeter;
  monitoring: MonitoringHandler | null;
  control: ControlHandler | null;
  /** Routes beside the /v1 routes. */
  routes: readonly Route[];
}

export class ApiServer {
  private readonly server: Server;
  private readonly router: Router;
  private readonly cache = new ResponseCache();
  private readonly key: Buffer;
  private served = 0;

  constructor(private readonly deps: ServerDeps) {
    this.key = Buffer.from(deps.apiKey);
    this.router = new Router([...v1Routes, ...deps.routes]);
    this.server = createServer((req, res) => this.onRequest(req, res));
    this.server.keepAliveTimeout = 30_000;
  }

  requestCount(): number {
    return this.served;
  }

  resetRequestCount(): void {
    this.served = 0;
  }

  listen(port: number, host: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        const addr = this.server.address() as AddressInfo;
        const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
        resolve(`http://${h}:${addr.port}`);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    let path = q < 0 ? url : url.slice(0, q);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path === '/health') return send(res, 200, JSON_TYPE, Buffer.from('{"status":"ok"}'));
    if (path.startsWith('/_sandbox/')) return void this.onControl(req, res, path);
    this.served++;
    const fault = this.deps.chaos.decide(path);
    const latency = this.deps.chaos.latencyMs;
    const search = q < 0 ? '' : url.slice(q + 1);
    const go = (): void => {
      if (req.socket.destroyed) return; // the client gave up (or was killed) while held
      if (this.deps.chaos.holds(path, search)) return void setTimeout(go, 10); // until the chaos changes
      this.serveApi(req, res, url, path, search, fault);
    };
    if (latency > 0) setTimeout(go, latency);
    else go();
  }

  private serveApi(req: IncomingMessage, res: ServerResponse, url: string, path: string, search: string, fault: Fault): void {
    // The service's clock, as a real server's Date header gives it: here the sandbox's own (it may run ahead).
    res.setHeader('date', new Date(this.deps.world.now * 1000).toUTCString());
    const monitoringPath = path.startsWith('/monitoring/') || path.startsWith('/token-unlocks/');
    const family = quotaFamily(req.method, path, this.router);
    if (family) {
      // A spent allowance is refused before anything else happens, and does not count as used.
      const decision = this.deps.quota.admit(family);
      if (!decision.admitted) {
        const refusal = quotaRefusal(family, decision.spent, this.deps.quota.at(decision.spent.period));
        return send(res, 429, JSON_TYPE, Buffer.from(JSON.stringify(refusal.body)), refusal.headers);
      }
      // A fault strikes a request the service took in, so it counts (as the client's ledger does).
      if (fault !== 'none' && fault !== 'truncate') this.deps.quota.record(family);
    }
    if (fault === 'reset') return void req.socket.destroy();
    if (fault === 'html') return send(res, 200, 'text/html; charset=utf-8', PROXY_PAGE);
    if (fault === '500' || fault === '503' || fault === '429') {
      const status = Number(fault);
      const message = status === 429 ? 'Too Many Requests' : status === 500 ? 'Internal Server Error' : 'Service Unavailable';
      const body = monitoringPath ? { error: message, data: null } : { statusCode: status, message };
      const headers: Record<string, string> = status === 429 ? { 'retry-after': String(this.deps.chaos.retryAfterSeconds) } : {};
      return send(res, status, JSON_TYPE, Buffer.from(JSON.stringify(body)), headers);
    }
    let out: CachedResponse;
    try {
      out =
        req.method !== 'GET' && req.method !== 'HEAD'
          ? json(404, { statusCode: 404, message: `Cannot ${req.method} ${path}`, error: 'Not Found' })
          : monitoringPath
            ? this.monitoring(req, path, search)
            : this.v1(req, url, path, search);
    } catch (err) {
      out = errorResponse(err);
    }
    if (out.status === 200 && this.deps.chaos.lying(path)) out = this.lie(req, path, search, out, monitoringPath);
    // Rejected credentials are not the team's requests: they count against no quota.
    const tightest = family && out.status !== 401 ? this.deps.quota.record(family) : null;
    const headers = tightest ? rateLimitHeaders(tightest) : {};
    if (fault === 'truncate') return truncate(res, out, headers);
    send(res, out.status, out.contentType, out.body, headers);
  }

  private v1(req: IncomingMessage, url: string, path: string, search: string): CachedResponse {
    const match = this.router.match(path);
    if (!match) return json(404, { statusCode: 404, message: `Cannot GET ${path}`, error: 'Not Found' });
    checkAuth(match.route.auth, req.headers, this.key);
    const { world } = this.deps;
    const hit = this.cache.get(world.epoch, url);
    if (hit) return hit;
    let out: CachedResponse;
    try {
      const body = match.route.handle({ w: world, params: match.params, query: new URLSearchParams(search) });
      out = body instanceof RawBody ? { status: 200, contentType: body.contentType, body: body.body } : json(200, body);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      out = errorResponse(err);
    }
    this.cache.set(world.epoch, url, out);
    return out;
  }

  /** A list page as a lying service serves it; `pageOf` reads the honest neighbours a sliding list needs. */
  private lie(req: IncomingMessage, path: string, search: string, out: CachedResponse, monitoringPath: boolean): CachedResponse {
    const parse = (r: CachedResponse) => (r.status === 200 && r.contentType === JSON_TYPE ? JSON.parse(r.body.toString('utf8')) : null);
    const body = parse(out);
    if (body === null) return out;
    if (!Array.isArray(body.data)) return json(200, this.deps.chaos.record(path, body));
    const pageOf = (page: number) => {
      const query = new URLSearchParams(search);
      query.set('page', String(page));
      const q = query.toString();
      return parse(monitoringPath ? this.monitoring(req, path, q) : this.v1(req, `${path}?${q}`, path, q));
    };
    return json(200, this.deps.chaos.lie(path, search, body, pageOf));
  }

  private monitoring(req: IncomingMessage, path: string, search: string): CachedResponse {
    const result = this.deps.monitoring?.handle({ path, query: new URLSearchParams(search), headers: req.headers });
    if (!result) return json(404, { error: `Cannot GET ${path}`, data: null });
    return json(result.status, result.body);
  }

  private async onControl(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const control = this.deps.control;
    if (!control)
      return send(
        res,
        404,
        JSON_TYPE,
        Buffer.from(JSON.stringify({ statusCode: 404, message: 'control API is off (start with --control)' })),
      );
    try {
      const raw = await readBody(req);
      const body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      const out = await control(req.method ?? 'GET', path, body, req.headers);
      send(res, out.status, JSON_TYPE, Buffer.from(JSON.stringify(out.body)));
    } catch (err) {
      const out = err instanceof SyntaxError ? json(400, { statusCode: 400, message: 'body must be JSON' }) : errorResponse(err);
      send(res, out.status, out.contentType, out.body);
    }
  }
}

function json(status: number, body: unknown): CachedResponse {
  return { status, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(body)) };
}

function errorResponse(err: unknown): CachedResponse {
  if (err instanceof HttpError) return json(err.status, err.body);
  if (err instanceof URIError) return json(400, { statusCode: 400, message: ['path has a malformed %-escape'], error: 'Bad Request' });
  console.error('sandbox: unexpected error', err);
  return json(500, { statusCode: 500, message: 'Internal Server Error' });
}

/** What a proxy or load balancer in front of a service answers when the service behind it is down. */
const PROXY_PAGE = Buffer.from(
  '<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n</body>\n</html>\n',
);

function send(res: ServerResponse, status: number, type: string, body: Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': body.length, ...headers });
  res.end(body);
}

/** Promises the whole body, sends half, then destroys the socket. */
function truncate(res: ServerResponse, out: CachedResponse, headers: Record<string, string>): void {
  res.writeHead(out.status, { 'content-type': out.contentType, 'content-length': out.body.length, ...headers });
  res.write(out.body.subarray(0, Math.floor(out.body.length / 2)), () => res.socket?.destroy());
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
