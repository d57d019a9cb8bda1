// ds-mirror against the forty-line script a user would write instead, in one run on one
// sandbox process: a first sync into a fresh file and a no-op re-run, each side as a user runs it (a
// process of its own: `node bin/ds-mirror.js sync v1`, `node bench/forty-line-script.mjs`), runs
// interleaved, the fastest of each kept; at each added latency; with each process's peak RSS. Beside
// them the fetch-only floor of the first sync (bench/fetch-only.mjs: the same pages, lengths known,
// nothing written), which a first sync at 50 ms per request should stay within 1.5x of.
//   npx tsx bench/vs-script.ts [--scale 10] [--runs 3] [--latency 0,50]
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { resolveStreams } from '../src/catalog/index.js';
import type { ListStream } from '../src/catalog/types.js';
import { pageWindow } from '../src/requests/list-requests.js';
import { syncSettings } from '../src/sync/settings.js';
import { startSandboxProcess } from './sandbox-process.js';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    latency: { type: 'string', default: '0,50' },
  },
});
const runs = Number(values.runs);
const lists = resolveStreams(['v1']).filter((s): s is ListStream => s.kind === 'list' && s.paginator.type === 'page-number');
const scriptLists = lists.flatMap((s) =>
  (s.variants ?? [{ query: {} }]).map((v) => ({
    path: s.path,
    query: Object.fromEntries(Object.entries({ ...s.query, ...v.query }).map(([k, x]) => [k, String(x)])),
    pageSize: s.paginator.type === 'page-number' ? s.paginator.pageSize : 0,
    key: s.key[0],
    window: pageWindow(s, syncSettings({})),
  })),
);

const sandbox = await startSandboxProcess(Number(values.scale));
const dir = mkdtempSync(join(tmpdir(), 'ds-mirror-vs-script-'));
const fast = { requestsPerMinute: 1e9, concurrency: 16 };
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ limits: { v1: { ...fast, requestsPerMonth: null }, charts: fast, open: fast } }));

interface Timed {
  seconds: number;
  rssMb: number;
  /** CPU seconds the process used (user + system). */
  cpu: number;
  /** CPU seconds the sandbox used serving it. */
  served: number;
}

const PEAK_RSS = new URL('./peak-rss.cjs', import.meta.url).pathname;

/** Runs one side in a process of its own: wall seconds (start-up included) and its peak RSS. */
async function timed(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Timed> {
  const started = performance.now();
  const sandboxCpu = sandbox.cpuSeconds();
  const child = await run(process.execPath, args, {
    env: { ...process.env, ...env, NODE_OPTIONS: `--require ${PEAK_RSS}` },
    maxBuffer: 64 * 2 ** 20,
  });
  const seconds = (performance.now() - started) / 1000;
  const rss = /__maxrss=(\d+)/.exec(child.stderr)?.[1];
  if (!rss) throw new Error(`no peak RSS reported by ${args.join(' ')}: ${child.stderr.slice(-300)}`);
  const cpu = Number(/__cpu=(\d+)/.exec(child.stderr)?.[1] ?? Number.NaN) / 1e6;
  return { seconds, rssMb: Math.round(Number(rss) / 1024), cpu, served: sandbox.cpuSeconds() - sandboxCpu };
}

const mirror = (db: string) =>
  // `--expose-gc` as the launcher's first line gives it (a sync collects the pages it parsed).
  timed(['--expose-gc', 'bin/ds-mirror.js', 'sync', 'v1', '--no-progress', '--db', `sqlite:${db}`, '--config', config], {
    DS_BASE_URL: sandbox.url,
    DS_API_KEY: sandbox.apiKey,
    DS_LOG_LEVEL: 'warn',
  });
const script = (db: string) => timed(['bench/forty-line-script.mjs', sandbox.url, sandbox.apiKey, db, JSON.stringify(scriptLists)]);
/** Each list's page count, read once (untimed, no latency): the fetch-only floor is given them. */
async function pageCounts() {
  const counted = [];
  for (const list of scriptLists) {
    let pages = 0;
    for (let page = 1; ; page++) {
      const url = new URL(list.path, sandbox.url);
      for (const [k, v] of Object.entries({ ...list.query, page: String(page), limit: String(list.pageSize) })) url.searchParams.set(k, v);
      const body = (await (await fetch(url, { headers: { 'x-api-key': sandbox.apiKey } })).json()) as { data: unknown[] };
      pages = page;
      if (body.data.length < list.pageSize) break;
    }
    counted.push({ ...list, pages });
  }
  return counted;
}

const floors: string[] = [];
const best = (xs: Timed[]) => xs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const lines = [
  `### ds-mirror against the forty-line script, scale ${values.scale} (fastest of ${runs} interleaved runs)`,
  '',
  '| latency | phase | script s | ds-mirror s | ds-mirror speed ÷ script speed | script CPU s | ds-mirror CPU s | sandbox CPU s serving script / ds-mirror | script peak RSS MB | ds-mirror peak RSS MB |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
try {
  await script(join(dir, 'warm.db')); // the sandbox's page cache, for both sides alike
  const counted = JSON.stringify(await pageCounts());
  const fetchOnly = () => timed(['bench/fetch-only.mjs', sandbox.url, sandbox.apiKey, counted]);
  for (const latency of values.latency!.split(',').map(Number)) {
    await sandbox.setLatency(latency);
    const got = { sFirst: [] as Timed[], sNoop: [] as Timed[], mFirst: [] as Timed[], mNoop: [] as Timed[], fetch: [] as Timed[] };
    for (let i = 0; i < runs; i++) {
      const s = join(dir, `s-${latency}-${i}.db`);
      const m = join(dir, `m-${latency}-${i}.db`);
      got.sFirst.push(await script(s));
      got.mFirst.push(await mirror(m));
      got.sNoop.push(await script(s));
      got.mNoop.push(await mirror(m));
      got.fetch.push(await fetchOnly());
      process.stderr.write(`latency ${latency} run ${i + 1}: ${JSON.stringify(got)}\n`);
    }
    for (const [phase, s, m] of [
      ['first sync', best(got.sFirst), best(got.mFirst)],
      ['no-op re-run', best(got.sNoop), best(got.mNoop)],
    ] as const)
      lines.push(
        `| ${latency} ms | ${phase} | ${s.seconds.toFixed(2)} | ${m.seconds.toFixed(2)} | **${(s.seconds / m.seconds).toFixed(2)}×** | ${s.cpu.toFixed(2)} | ${m.cpu.toFixed(2)} | ${s.served.toFixed(2)} / ${m.served.toFixed(2)} | ${s.rssMb} | ${m.rssMb} |`,
      );
    const floor = best(got.fetch).seconds;
    floors.push(
      `| ${latency} ms | ${floor.toFixed(2)} | ${best(got.mFirst).seconds.toFixed(2)} | **${(best(got.mFirst).seconds / floor).toFixed(2)}×** |`,
    );
  }
  lines.push(
    '',
    '| latency | fetch-only first sync s | ds-mirror first sync s | ds-mirror ÷ fetch-only (goal ≤ 1.5× at 50 ms) |',
    '|---|---|---|---|',
    ...floors,
    '',
    "Both read the same lists and pages (`sync v1`'s page-number lists; the script is given them). The script: one request at a time, `better-sqlite3` upsert of each record's raw JSON into one table, one transaction per page; no quotas, resume, change detection, history or quarantine. ds-mirror: the CLI as a user runs it, a fresh database, the pace lifted. Wall time includes each process's start; CPU is each process's user and system time (all its threads), not the sandbox's. Fetch-only: bench/fetch-only.mjs, the same pages with ds-mirror's page window per list and the lengths known, bodies dropped.",
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
