import { copyFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { openStore } from '/work/wt/pg9/src/store/index.ts';
import { MIRROR_SCHEMA } from '/work/wt/pg9/src/mirror-schema/index.ts';
const dir = mkdtempSync(join(tmpdir(), 'pg9-sq-'));
const file = join(dir, 'm.db');
await (await openStore({ url: `sqlite:${file}`, migrations: MIRROR_SCHEMA })).close();
const N = 40;
for (const migrate of [false, true, false, true]) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await (await openStore({ url: `sqlite:${file}`, migrations: MIRROR_SCHEMA, migrate })).close();
  const c = process.cpuUsage(c0);
  console.log(`sqlite migrate ${migrate}: ${((c.user + c.system) / 1000 / N).toFixed(1)} ms per open+close`);
}
