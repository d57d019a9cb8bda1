// The daemon's own HTTP endpoints: GET /healthz (liveness, and each job's state) and GET /metrics
// (Prometheus). Bound to loopback unless configured otherwise: the job states name streams and errors.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

export interface HealthServerOptions {
  port: number;
  host: string;
  /** The body of /healthz and whether the process is healthy (200) or stopping (503). */
  health: () => { ok: boolean; body: object };
  metrics: { contentType: string; render(): Promise<string> };
  logger: Logger;
  /** Families whose allowance is spent or whose schedule no longer fits before the renewal: /healthz says `degraded`. */
  budget?: () => readonly { family: string; renewsAt: string; reason: string }[];
}

export interface HealthServer {
  /** Base URL, e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

export async function startHealthServer(opts: HealthServerOptions): Promise<HealthServer> {
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
    if (path === '/healthz') {
      const { ok, body } = opts.health();
      const budget = opts.budget?.() ?? [];
      const status = (body as { status?: string }).status;
      const answer = budget.length > 0 ? { ...body, status: status === 'ok' ? 'degraded' : status, budget } : body;
      return send(res, ok ? 200 : 503, 'application/json', `${JSON.stringify(answer)}\n`);
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
    send(res, 404, 'text/plain', 'not found: try /healthz or /metrics\n');
  };
}
