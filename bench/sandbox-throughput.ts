// Requests per second the sandbox serves for /v1/assets pages (limit=100) at scale 10, measured with
// an undici Pool and 16 requests in flight. The sandbox runs in its own process (as in real use), so
// the client's work is not counted against it.
// Run: npx tsx bench/sandbox-throughput.ts [--seconds 5] [--expand]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const CONCURRENCY = 16;
const argSeconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]);
const seconds = process.argv.includes('--seconds') && argSeconds > 0 ? argSeconds : 5;
const expand = process.argv.includes('--expand') ? '&expand=market_cap,price,equity_market_data,project' : '';

const apiKey = `bench_${randomBytes(8).toString('hex')}`;
const cli = fileURLToPath(new URL('../sandbox/cli.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--scale', '10', '--seed', '42'], {
  env: { ...process.env, SANDBOX_API_KEY: apiKey },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /listening on (\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});
const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
const headers = { 'x-api-key': apiKey };
const pages = await countPages();

/** Pages of the token class: page through once (this also fills the sandbox's page cache). */
async function countPages(): Promise<number> {
  for (let page = 1; ; page++) {
    const res = await pool.request({ method: 'GET', path: `/v1/assets?limit=100&page=${page}${expand}`, headers });
    const { data } = (await res.body.json()) as { data: unknown[] };
    if (data.length < 100) return page;
  }
}

async function run(durationMs: number): Promise<{ requests: number; bytes: number }> {
  const stopAt = Date.now() + durationMs;
  let requests = 0;
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < stopAt) {
        const page = (next++ % pages) + 1;
        const res = await pool.request({ method: 'GET', path: `/v1/assets?limit=100&page=${page}${expand}`, headers });
        const body = await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
        bytes += body.byteLength;
        requests++;
      }
    }),
  );
  return { requests, bytes };
}

await run(1000); // warm-up: fills the page cache and the JIT
const { requests, bytes } = await run(seconds * 1000);
const rps = Math.round(requests / seconds);
console.log(
  `| sandbox /v1/assets limit=100${expand ? ' expanded' : ''}, scale 10 | ${pages} pages | ${CONCURRENCY} in flight | ` +
    `${rps} req/s | ${Math.round(bytes / requests / 1024)} KB/page | ${Math.round(bytes / seconds / 1e6)} MB/s |`,
);
await pool.close();
child.kill('SIGTERM');
await once(child, 'exit');
