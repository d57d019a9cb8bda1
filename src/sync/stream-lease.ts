// The lease a stream runs under. Owners are named host:pid:random, so a lease left by a process that
// died on this same host (kill -9, power loss of a laptop) is taken over at once instead of blocking
// until it expires; a holder on another host is trusted until its lease expires. The same goes for a
// run of this very process that has ended but could not release its leases (a connection cut at the
// end): a daemon's next run must not skip its streams for a minute because of its own last one.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Lease, Store } from '../store/types.js';

export const LEASE_TTL_MS = 60_000;

export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** The owners of this process's runs still going, with how many runs each. */
const running = new Map<string, number>();

/** Marks `owner` as running until the returned function is called. */
export function ownerRunning(owner: string): () => void {
  running.set(owner, (running.get(owner) ?? 0) + 1);
  return () => {
    const n = (running.get(owner) ?? 1) - 1;
    if (n > 0) running.set(owner, n);
    else running.delete(owner);
  };
}

export async function acquireStreamLease(store: Store, stream: string, owner: string): Promise<Lease | { heldBy: string }> {
  const name = `sync:${stream}`;
  const lease = await store.acquireLease(name, owner, LEASE_TTL_MS);
  if (lease) return lease;
  const holder = await store.leaseHolder(name);
  if (holder && ownerDied(holder.owner)) {
    await store.breakLease(name, holder.owner);
    const taken = await store.acquireLease(name, owner, LEASE_TTL_MS);
    if (taken) return taken;
  }
  return { heldBy: holder ? `${holder.owner}, lease until ${holder.expiresAt}` : 'another worker' };
}

/** Whether `owner` (host:pid:random) was a process of this host that no longer exists, or a run of this one that ended. */
export function ownerDied(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '')) return false;
  if (Number(pid) === process.pid) return !running.has(owner);
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
