// A second process for leases.test.ts: tries to take a lease on the same database and prints
// what happened as one JSON line.
import { openStore } from '../../src/store/index.js';

const [url, schema, name, owner] = process.argv.slice(2);
const store = await openStore({ url, schema: schema || undefined, migrate: false });
try {
  const lease = await store.holdLease(name, owner, 5_000);
  await lease.release();
  console.log(JSON.stringify({ taken: true }));
} catch (err) {
  console.log(JSON.stringify({ taken: false, code: (err as { code?: string }).code, message: (err as Error).message }));
} finally {
  await store.close();
}
