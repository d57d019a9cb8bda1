// A run whose leases could not be released (the connection was cut as it ended, the disk filled) leaves
// them in the table until they expire. The next run of the same process (a daemon's next fire) must
// take them back at once, not skip its streams for a minute as if another worker held them; a run of
// this process still going keeps its leases.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { acquireStreamLease, leaseOwner, ownerRunning } from '../../src/sync/stream-lease.js';
import { dialects } from '../helpers/stores.js';
import { syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { sandboxWithStore } from '../helpers/sandbox-store.js';

for (const dialect of dialects) {
  describe(`leases a run of this process could not release (${dialect})`, () => {
    const fx = sandboxWithStore(dialect, { start: PINNED_START, scale: 0.2, seed: 8 });

    it('are taken back at once by the next run, which completes', async () => {
      const keep =
        dialect === 'sqlite'
          ? ['create trigger keep_leases before delete on leases begin select raise(abort, "cut"); end']
          : [
              `create function keep_leases() returns trigger language plpgsql as $$ begin raise exception 'cut'; end $$`,
              'create trigger keep_leases before delete on leases for each row execute function keep_leases()',
            ];
      for (const statement of keep) await sql.raw(statement).execute(fx.t.store.db);
      const first = await syncOnce(fx.t.store, fx.sandbox, ['chains', 'glossary']);
      expect(first.outcome).toBe('success');
      const left = await fx.t.store.db.selectFrom('leases').select('name').where('name', 'like', 'sync:%').execute();
      expect(left.map((l) => l.name).sort()).toEqual(['sync:chains', 'sync:glossary']);

      await sql.raw(`drop trigger keep_leases${dialect === 'postgres' ? ' on leases' : ''}`).execute(fx.t.store.db);
      const again = await syncOnce(fx.t.store, fx.sandbox, ['chains', 'glossary']);
      expect(again.streams.map((s) => [s.stream, s.outcome, s.error ?? null])).toEqual([
        ['chains', 'success', null],
        ['glossary', 'success', null],
      ]);
      expect(await fx.t.store.db.selectFrom('leases').select('name').where('name', 'like', 'sync:%').execute()).toEqual([]);
    });

    it('are kept while their run goes on', async () => {
      const owner = leaseOwner();
      const ended = ownerRunning(owner);
      const other = await fx.t.openAnother();
      try {
        expect(await other.acquireLease('sync:assets', owner, 60_000)).not.toBeNull();
        expect(await acquireStreamLease(fx.t.store, 'assets', leaseOwner())).toEqual({ heldBy: expect.stringContaining(owner) });
        ended();
        expect('heldBy' in (await acquireStreamLease(fx.t.store, 'assets', leaseOwner()))).toBe(false);
      } finally {
        await fx.t.store.db.deleteFrom('leases').execute();
      }
    });
  });
}
