// A proxy in front of the sandbox that fails chosen requests the way a service or its network can: a
// status with a body of its own, a body rewritten (records repeated, a list that never ends), or no
// answer at all. `fault` sees each request's URL and says what to do; null passes it on unchanged.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { status: number; body: string }
  /** The upstream answer's parsed body, rewritten. */
  | { rewrite: (body: { data: unknown[] } & Record<string, unknown>) => unknown }
  /** Headers and body never come: the connection stays open until the client gives up. */
  | { hang: true }
  /** Held until `wait` settles, then given `next`'s fault (none: passed on unchanged, not counted). */
  | { wait: Promise<unknown>; next?: () => Fault | null };

export interface FaultyProxy {
  url: string;
  apiKey: string;
  /** Requests that got a fault. */
  faults(): number;
  close(): Promise<void>;
}

export async function startFaultyProxy(upstream: { url: string; apiKey: string }, fault: (url: URL) => Fault | null): Promise<FaultyProxy> {
  let faults = 0;
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    let chosen = fault(url);
    while (chosen && 'wait' in chosen) {
      await chosen.wait;
      chosen = chosen.next?.() ?? null;
    }
    if (chosen) faults++;
    if (chosen && 'hang' in chosen) return;
    if (chosen && 'status' in chosen) return reply(res, chosen.status, chosen.body);
    const answer = await fetch(`${upstream.url}${req.url}`, { headers: { 'x-api-key': String(req.headers['x-api-key'] ?? '') } });
    const text = await answer.text();
    reply(res, answer.status, chosen ? JSON.stringify(chosen.rewrite(JSON.parse(text))) : text, answer.headers.get('date'));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: upstream.apiKey,
    faults: () => faults,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, status: number, body: string, date?: string | null): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(date ? { date } : {}) });
  res.end(body);
}
