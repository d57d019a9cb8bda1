// A second process for the store tests: opens the same database (applying migrations, as every
// ds-mirror process does) and, given a lease name, tries to take it. Prints one JSON line an attempt.
// Given `again`, it tries once more after a line on its stdin (the parent freed the lease meanwhile):
// one process, not two, for a refusal and the take that follows.
// It runs the compiled store (`npm run build`, as the CLI's tests need): a child that loads src/ through
// tsx compiled the sources again each time, 2.5 CPU-seconds a process against 0.7.
import { once } from 'node:events';
import { openStore } from '../../dist/src/store/index.js';
import { MIRROR_SCHEMA } from '../../dist/src/mirror-schema/index.js';

const [url, schema, leaseName, owner, again] = process.argv.slice(2);
const store = await openStore({ migrations: MIRROR_SCHEMA, url, schema: schema || undefined });

async function attempt() {
  try {
    const lease = await store.holdLease(leaseName, owner, 5_000);
    await lease.release();
    console.log(JSON.stringify({ taken: true }));
  } catch (err) {
    console.log(JSON.stringify({ taken: false, code: err?.code, message: err?.message }));
  }
}

try {
  if (!leaseName) {
    console.log(JSON.stringify({ opened: true }));
  } else {
    await attempt();
    if (again) {
      await once(process.stdin, 'data');
      await attempt();
    }
  }
} finally {
  process.stdin.destroy();
  await store.close();
}
