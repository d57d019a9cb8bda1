// A real node:http server on 127.0.0.1:0 whose behaviour each test sets; it records what it saw.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface SeenRequest {
  url: string;
  headers: IncomingMessage['headers'];
  at: number;
}

export interface TestServer {
  readonly baseUrl: string;
  readonly seen: SeenRequest[];
  readonly maxInFlight: number;
  /** Sets the handler and clears what was seen. */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => json(res, 200, {});
  const seen: SeenRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers, at: performance.now() });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (!done) (done = true), inFlight--;
    };
    res.on('finish', finish);
    res.on('close', finish);
    handler(req, res, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    get maxInFlight() {
      return maxInFlight;
    },
    handle(h) {
      handler = h;
      seen.length = 0;
      maxInFlight = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
