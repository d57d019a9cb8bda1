const keep = setInterval(() => {}, 1000);
import pg from 'pg';
import { startPgCluster } from '/work/wt/pg9/test/helpers/pg-cluster.ts';
import { serverCpu } from '/work/wt/pg9/test/helpers/process-cpu.ts';
import { makeStoreTemplates, databaseUrl, TEMPLATE_SCHEMA } from '/work/wt/pg9/test/helpers/store-templates.ts';
import { takeDatabase, giveBack } from '/work/wt/pg9/test/helpers/reused-databases.ts';
import { startSandbox } from '/work/wt/pg9/sandbox/index.ts';
import { PINNED_START } from '/work/wt/pg9/test/helpers/sandbox-start.ts';
import { syncOnce } from '/work/wt/pg9/test/helpers/mirror.ts';
import { v1Lists } from '/work/wt/pg9/src/catalog/v1.ts';
import { openStore } from '/work/wt/pg9/src/store/index.ts';
import { MIRROR_SCHEMA } from '/work/wt/pg9/src/mirror-schema/index.ts';

const sb = await startSandbox({ start: PINNED_START, scale: 0.1 } as never);
const sets = (process.env.SETS ?? '').split(';');
const results: Record<string, number[]> = {};
for (let round = 0; round < 2; round++)
for (const set of sets) {
  const cluster = await startPgCluster(['jit=off', 'autovacuum=off', ...set.split(' ').filter(Boolean)]);
  try {
    const t = await makeStoreTemplates(cluster.url);
    const before = serverCpu(cluster.pid)!;
    for (let rep = 0; rep < 3; rep++) {
      const db = `x_${rep}`;
      const a = new pg.Client({ connectionString: cluster.url }); await a.connect(); await a.query(`create database ${db} template ${t.pgDatabase}`); await a.end();
      const store = await openStore({ url: databaseUrl(cluster.url, db), schema: TEMPLATE_SCHEMA, migrations: MIRROR_SCHEMA });
      await syncOnce(store, sb, v1Lists.map((s) => s.name));
      for (let i = 0; i < 5; i++) await (await openStore({ url: databaseUrl(cluster.url, db), schema: TEMPLATE_SCHEMA, migrations: MIRROR_SCHEMA })).close();
      await store.close();
      const a2 = new pg.Client({ connectionString: cluster.url }); await a2.connect(); await a2.query(`drop database ${db}`); await a2.end();
    }
    (results[set || 'default'] ??= []).push(serverCpu(cluster.pid)! - before);
    await t.drop();
  } finally {
    await cluster.stop();
  }
}
for (const [k, v] of Object.entries(results)) console.log(k.padEnd(60), v.map((x) => x.toFixed(2)).join(' '));
await sb.close();
clearInterval(keep);
process.exit(0);
