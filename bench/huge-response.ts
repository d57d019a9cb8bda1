// Memory held while a service sends a 700 MB body: the client stops at maxResponseBytes (default 64 MiB)
// while the body streams in. Prints the limit, the bytes the server got out and the peak growth of RSS
// and of Buffer memory over the request.
//   npx tsx bench/huge-response.ts [--mb 700] [--limit-mb 64]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '../src/client/index.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const MiB = 1024 * 1024;
const bodyBytes = arg('mb', 700) * MiB;
const limit = arg('limit-mb', 64) * MiB;

let sent = 0;
const chunk = Buffer.alloc(64 * 1024, 'x');
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const write = () => {
    while (sent < bodyBytes) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('error', () => {});
  write();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = createClient({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  apiKey: 'k',
  retries: 0,
  maxResponseBytes: limit,
});

const before = process.memoryUsage();
let peakRss = 0;
let peakBuffers = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss - before.rss);
  peakBuffers = Math.max(peakBuffers, m.arrayBuffers - before.arrayBuffers);
}, 1);
let outcome = 'read whole';
try {
  await client.getBytes('/v1/charts');
} catch (err) {
  outcome = (err as { code?: string }).code ?? String(err);
}
clearInterval(sampler);
await client.close();
server.closeAllConnections();
server.close();
const mb = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
console.log(`| body | limit | outcome | server sent | peak RSS growth | peak Buffer growth |`);
console.log(`|---:|---:|---|---:|---:|---:|`);
console.log(`| ${mb(bodyBytes)} | ${mb(limit)} | ${outcome} | ${mb(sent)} | ${mb(peakRss)} | ${mb(peakBuffers)} |`);
