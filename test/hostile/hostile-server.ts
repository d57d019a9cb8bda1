// A loopback stand-in for a hostile Data Service: the sandbox serves only well-formed data, so the
// cases a real service (or a proxy in front of it) could serve are built here: poisoned records in a
// list, lists that never end, pages that repeat A/B/A/B, bodies far larger than any limit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Serve = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

export interface HostileServer {
  readonly url: string;
  /** Requests served since the last `serve`. */
  readonly hits: number;
  serve(handler: Serve): void;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A list page as the service shapes it: `page`, `limit` from the query, `data` from `records(page, limit)`. */
export function listOf(records: (page: number, limit: number) => unknown[]): Serve {
  return (url, _req, res) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    sendJson(res, { page, total: null, data: records(page, limit) });
  };
}

export async function startHostileServer(): Promise<HostileServer> {
  let handler: Serve = (_url, _req, res) => sendJson(res, { data: [] });
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    handler(new URL(req.url ?? '/', 'http://x'), req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get hits() {
      return hits;
    },
    serve(next) {
      handler = next;
      hits = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
