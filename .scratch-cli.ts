const keep = setInterval(() => {}, 1000);
import pg from 'pg';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startPgCluster } from '/work/wt/pg9/test/helpers/pg-cluster.ts';
import { serverCpu } from '/work/wt/pg9/test/helpers/process-cpu.ts';
import { makeStoreTemplates, databaseUrl, TEMPLATE_SCHEMA } from '/work/wt/pg9/test/helpers/store-templates.ts';
import { startSandbox } from '/work/wt/pg9/sandbox/index.ts';
import { PINNED_START } from '/work/wt/pg9/test/helpers/sandbox-start.ts';
import { LAUNCHER_FLAGS } from '/work/wt/pg9/test/helpers/launcher.ts';
const run = promisify(execFile);
const sb = await startSandbox({ start: PINNED_START, scale: 0.1 } as never);
const cluster = await startPgCluster(['jit=off', 'autovacuum=off', 'log_connections=on', 'logging_collector=on', 'log_directory=/tmp/pg9/pglog', 'log_filename=cli.log']);
const dir = mkdtempSync(join(tmpdir(), 'pg9-cli-'));
try {
  const t = await makeStoreTemplates(cluster.url);
  const a = new pg.Client({ connectionString: cluster.url }); await a.connect();
  await a.query(`create database xcli template ${t.pgDatabase}`);
  const file = join(dir, 'c.json');
  const fast = { requestsPerMinute: 1_000_000, concurrency: 8 };
  writeFileSync(file, JSON.stringify({ timezone: 'UTC' }));
  const env = { ...process.env, DS_BASE_URL: sb.url, DS_API_KEY: sb.apiKey, DS_DB: databaseUrl(cluster.url, 'xcli'), DS_DB_SCHEMA: TEMPLATE_SCHEMA, DS_CONFIG: file, DS_LOG_LEVEL: 'warn' };
  for (const args of (process.env.CMDS ?? 'sync;status;sync').split(';')) {
    const s0 = (await a.query(`select sessions from pg_stat_database where datname = 'xcli'`)).rows[0].sessions;
    const before = serverCpu(cluster.pid)!;
    const r = await run(process.execPath, [...LAUNCHER_FLAGS, 'bin/ds-mirror.js', ...args.split(' ')], { env, maxBuffer: 1e8 }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 1500));
    const s1 = (await a.query(`select sessions from pg_stat_database where datname = 'xcli'`)).rows[0].sessions;
    console.log(`${args}: exit ${r.code ?? 0}, sessions ${s1 - s0}, server ${(serverCpu(cluster.pid)! - before).toFixed(2)} s ${String(r.stderr ?? '').slice(0, 200)}`);
  }
  await a.end();
  await t.drop();
} finally { await cluster.stop(); await sb.close(); }
clearInterval(keep); process.exit(0);
