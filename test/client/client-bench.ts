// Requests/second of the client's `get` against a raw undici Pool doing the same work (request,
// read the whole body, JSON.parse), on a loopback server in another process serving 1 KB of JSON.
// Run: npx tsx test/client/client-bench.ts [requests-per-round]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Pool } from 'undici';
import { createClient } from '../../src/client/index.js';

const CONCURRENCY = 16;
const PER_ROUND = Number(process.argv[2] ?? 20_000);
const ROUNDS = 3;

const SERVER = `
const body = JSON.stringify({ page: 1, total: 1, data: [{ id: 1, title: 'x'.repeat(960) }] });
const server = require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function rate(call: () => Promise<unknown>): Promise<number> {
  let left = PER_ROUND;
  const started = performance.now();
  const worker = async () => {
    while (left-- > 0) await call();
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return PER_ROUND / ((performance.now() - started) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port] = (await once(child.stdout, 'data')) as [Buffer];
  const origin = `http://127.0.0.1:${String(port).trim()}`;

  const pool = new Pool(origin, { connections: CONCURRENCY });
  const raw = async () => {
    const res = await pool.request({ method: 'GET', path: '/v1/assets?page=1', headers: { 'x-api-key': 'k' } });
    return JSON.parse(await res.body.text());
  };
  const client = createClient({
    baseUrl: origin,
    apiKey: 'k',
    limits: { v1: { requestsPerMinute: 1e9, concurrency: CONCURRENCY } },
  });
  const viaClient = () => client.get('/v1/assets', { page: 1 });

  await rate(raw);
  await rate(viaClient);
  const rawRates: number[] = [];
  const clientRates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rawRates.push(await rate(raw));
    clientRates.push(await rate(viaClient));
  }
  const rawMed = median(rawRates);
  const clientMed = median(clientRates);
  console.log(`| path | requests/s (median of ${ROUNDS} x ${PER_ROUND}, concurrency ${CONCURRENCY}) |`);
  console.log('|---|---|');
  console.log(`| raw undici Pool.request | ${Math.round(rawMed)} |`);
  console.log(`| client.get | ${Math.round(clientMed)} |`);
  console.log(`| ratio client/raw | ${(clientMed / rawMed).toFixed(2)} |`);

  await client.close();
  await pool.close();
  child.kill();
}

await main();
