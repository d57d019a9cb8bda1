// Named leases with expiry in the `leases` table: one statement takes a free, expired or own lease,
// so two workers never both win, and a crashed worker's lease is taken over once it expires.
import { StopError } from '../errors.js';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { StoreAdapter } from './store-adapter.js';
import type { Lease, LeaseHolder } from './types.js';

/** Another worker runs this: not a failure, the caller stops (exit 3) and a later run goes on. */
export class LeaseHeldError extends StopError {
  constructor(
    readonly leaseName: string,
    readonly holder: LeaseHolder | null,
    hint: string,
  ) {
    const by = holder ? `by ${holder.owner} until ${holder.expiresAt}` : 'by another owner';
    super('DS_LEASE_HELD', `"${leaseName}" is already running: its lease is held ${by}; ${hint}`);
  }
}

export async function acquireLease(
  db: Kysely<Database>,
  adapter: StoreAdapter,
  name: string,
  owner: string,
  ttlMs: number,
): Promise<Lease | null> {
  const taken = await db
    .insertInto('leases')
    .values({ name, owner, expires_at: adapter.leaseExpiry(ttlMs) })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ owner: eb.ref('excluded.owner'), expires_at: eb.ref('excluded.expires_at') }))
        .where((eb) => eb.or([eb('leases.owner', '=', owner), eb('leases.expires_at', '<=', adapter.leaseNow())])),
    )
    .returning('owner')
    .execute();
  if (taken.length === 0) return null;

  const mine = db.updateTable('leases').where('name', '=', name).where('owner', '=', owner);
  return {
    name,
    async renew() {
      const [result] = await mine.set({ expires_at: adapter.leaseExpiry(ttlMs) }).execute();
      return Number(result?.numUpdatedRows ?? 0n) > 0;
    },
    async release() {
      await db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
    },
  };
}

export async function leaseHolder(db: Kysely<Database>, adapter: StoreAdapter, name: string): Promise<LeaseHolder | null> {
  const row = await db
    .selectFrom('leases')
    .select(['owner', 'expires_at'])
    .where('name', '=', name)
    .where('expires_at', '>', adapter.leaseNow())
    .executeTakeFirst();
  return row ? { owner: row.owner, expiresAt: row.expires_at } : null;
}

export async function liveLeases(db: Kysely<Database>, adapter: StoreAdapter): Promise<(LeaseHolder & { name: string })[]> {
  const rows = await db
    .selectFrom('leases')
    .select(['name', 'owner', 'expires_at'])
    .where('expires_at', '>', adapter.leaseNow())
    .orderBy('name')
    .execute();
  return rows.map((r) => ({ name: r.name, owner: r.owner, expiresAt: r.expires_at }));
}

export async function breakLease(db: Kysely<Database>, name: string, owner: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute();
}
