// A second process for the store tests: opens the same database (applying migrations, as every
// ds-mirror process does) and, given a lease name, tries to take it. Prints one JSON line.
// It runs the compiled store (`npm run build`, as the CLI's tests need): a child that loads src/ through
// tsx compiled the sources again each time, 2.5 CPU-seconds a process against 0.7.
import { openStore } from '../../dist/src/store/index.js';
import { MIRROR_SCHEMA } from '../../dist/src/mirror-schema/index.js';

const [url, schema, leaseName, owner] = process.argv.slice(2);
const store = await openStore({ migrations: MIRROR_SCHEMA, url, schema: schema || undefined });
try {
  if (!leaseName) {
    console.log(JSON.stringify({ opened: true }));
  } else {
    const lease = await store.holdLease(leaseName, owner, 5_000);
    await lease.release();
    console.log(JSON.stringify({ taken: true }));
  }
} catch (err) {
  console.log(JSON.stringify({ taken: false, code: err?.code, message: err?.message }));
} finally {
  await store.close();
}
