// A proxy in front of the sandbox that rewrites what it answers: a service that lies, page by page or
// record by record, over real HTTP. `rewrite` gets each JSON body (with `data`) and returns what to send.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const NOT_UTF8 = Buffer.from([0xff]);

export type Rewrite = (url: URL, body: { data: unknown[] } & Record<string, unknown>) => unknown;

export interface LyingProxy {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/**
 * `rewriteText` edits the body's text after `rewrite` (what no parsed object can say, such as 1e400);
 * each U+E000 it leaves is sent as the byte 0xFF, which no UTF-8 text holds.
 */
export async function startLyingProxy(
  upstream: { url: string; apiKey: string },
  rewrite: Rewrite,
  rewriteText: (url: URL, text: string) => string = (_url, text) => text,
): Promise<LyingProxy> {
  const server: Server = createServer(async (req, res) => {
    const headers: Record<string, string> = {};
    for (const name of ['x-api-key', 'x-service-api-key']) if (req.headers[name]) headers[name] = String(req.headers[name]);
    const answer = await fetch(`${upstream.url}${req.url}`, { headers });
    const text = await answer.text();
    const url = new URL(req.url ?? '/', 'http://proxy');
    let body = text;
    try {
      const parsed = JSON.parse(text);
      if (Array.isArray(parsed?.data)) body = JSON.stringify(rewrite(url, parsed));
    } catch {
      // not JSON: passed on as it came
    }
    body = rewriteText(url, body);
    const date = answer.headers.get('date');
    res.writeHead(answer.status, { 'content-type': 'application/json', ...(date ? { date } : {}) });
    res.end(Buffer.concat(body.split('\uE000').flatMap((part, i) => (i ? [NOT_UTF8, Buffer.from(part)] : [Buffer.from(part)]))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: upstream.apiKey,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
