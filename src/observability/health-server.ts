// The daemon's own HTTP endpoints: GET /healthz (liveness, and each job's state) and GET /metrics
// (Prometheus). Bound to loopback unless configured otherwise: the job states name streams and errors.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { HttpCredential } from '../config.js';
import { authorized, challenge, checkExposure } from './http-auth.js';

export interface HealthServerOptions {
  port: number;
  host: string;
  /** The body of /healthz and whether the process is healthy (200) or stopping (503). */
  health: () => { ok: boolean; body: object };
  metrics: { contentType: string; render(): Promise<string> };
  logger: Logger;
  /** The status page's HTML, rendered at each request (GET / and /status). */
  statusPage?: () => Promise<string>;
  /** Required on every path when set; a host beyond loopback without one is refused. */
  auth?: HttpCredential;
  /** Families whose allowance is spent or whose schedule no longer fits before the renewal: /healthz says `degraded`. */
  budget?: () => { alarms: readonly { family: string; renewsAt: string; reason: string }[]; month: readonly object[] };
}

export interface HealthServer {
  /** Base URL, e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

export async function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
  checkExposure(opts.host, opts.auth);
  const server = createServer(answerWith(opts));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

/** The request listener: /healthz from `health`, /metrics rendered at each scrape, anything else 404. */
function answerWith(opts: HealthServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed\n');
    if (opts.auth && !authorized(req.headers.authorization, opts.auth)) {
      res.setHeader('www-authenticate', challenge(opts.auth));
      return send(res, 401, 'text/plain', 'unauthorized: send the credential configured in "metricsAuth"\n');
    }
    if (opts.statusPage && (path === '/' || path === '/status')) return answerPage(opts.statusPage(), res, opts.logger);
    if (path === '/healthz') {
      // Nothing a probe does may end the process: a health that cannot be read is a 500, not a crash.
      let health: { ok: boolean; body: object };
      let budget: readonly { family: string; renewsAt: string; reason: string }[];
      let month: readonly object[] | undefined;
      try {
        health = opts.health();
        ({ alarms: budget, month } = opts.budget?.() ?? { alarms: [], month: undefined });
      } catch (err) {
        opts.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'health could not be read');
        return send(res, 500, 'text/plain', 'health unavailable\n');
      }
      const body = health.body as { status?: string; reasons?: string[] };
      const answer =
        budget.length > 0
          ? {
              ...body,
              status: body.status === 'ok' ? 'degraded' : body.status,
              reasons: [...(body.reasons ?? []), ...budget.map((b) => `the ${b.family} budget: ${b.reason}`)],
              budget,
              month,
            }
          : { ...body, month };
      return send(res, health.ok ? 200 : 503, 'application/json', `${JSON.stringify(answer)}\n`);
    }
    if (path === '/metrics') {
      opts.metrics.render().then(
        (text) => send(res, 200, opts.metrics.contentType, text),
        (err: unknown) => {
          opts.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'metrics could not be read');
          send(res, 500, 'text/plain', 'metrics unavailable: the database could not be read\n');
        },
      );
      return;
    }
    send(res, 404, 'text/plain', 'not found: try /healthz, /metrics or /status\n');
  };
}

function answerPage(page: Promise<string>, res: ServerResponse, logger: Logger): void {
  page.then(
    (text) => {
      res.setHeader('x-frame-options', 'DENY');
      res.setHeader('x-content-type-options', 'nosniff');
      send(res, 200, 'text/html; charset=utf-8', text);
    },
    (err: unknown) => {
      logger.error({ err: err instanceof Error ? err.message : String(err) }, 'status page could not be read');
      send(res, 500, 'text/plain', 'status page unavailable: the database could not be read\n');
    },
  );
}
