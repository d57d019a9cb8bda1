// @end-to-end
// A page whose write fails mid-list, while later pages of the list are being written: the stream
// fails (the process does not), the checkpoint never passes the failed page, and the next run
// resumes and ends with the service's rows, as a clean run does (v1-sync.test.ts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { v1Lists } from '../../src/catalog/v1.js';
import { dialects, openTestStore } from '../helpers/stores.js';
import { liveRecords, syncOnce } from '../helpers/mirror.js';
import { PINNED_START } from '../helpers/sandbox-start.js';
import { expectedRecords } from '../helpers/v1-expected.js';

const ASSETS = v1Lists.find((s) => s.name === 'assets')!;

for (const dialect of dialects) {
  describe(`a failed page write on ${dialect}`, () => {
    let sandbox: Sandbox;

    beforeAll(async () => {
      sandbox = await startSandbox({ start: PINNED_START, scale: 0.5, seed: 5 });
    });
    afterAll(async () => {
      await sandbox?.close();
    });

    it('fails the stream, keeps the checkpoint before the page, and the next run completes the mirror', async () => {
      const test = await openTestStore(dialect);
      try {
        // The 51st token of page 3 cannot be inserted.
        const res = await fetch(`${sandbox.url}/v1/assets?asset_class=token&page=3&limit=100`, {
          headers: { 'x-api-key': sandbox.apiKey },
        });
        const failing = Number(((await res.json()) as { data: { id: number }[] }).data[50].id);
        if (dialect === 'sqlite') {
          await sql
            .raw(`create trigger fail_one before insert on assets when new.id = ${failing} begin select raise(abort, 'boom'); end`)
            .execute(test.store.db);
        } else {
          await sql
            .raw(
              `create function fail_one() returns trigger language plpgsql as $$ begin if new.id = ${failing} then raise exception 'boom'; end if; return new; end $$`,
            )
            .execute(test.store.db);
          await sql.raw('create trigger fail_one before insert on assets for each row execute function fail_one()').execute(test.store.db);
        }
        const failed = await syncOnce(test.store, sandbox, ['assets']);
        expect(failed.outcome).toBe('failed');
        expect(failed.streams[0].error).toContain('boom');
        const { checkpoint } = (await test.store.getState('assets'))!;
        expect((checkpoint as { next: Record<string, number | null> }).next.token).toBeLessThanOrEqual(3);

        await sql.raw(`drop trigger fail_one${dialect === 'postgres' ? ' on assets' : ''}`).execute(test.store.db);
        expect((await syncOnce(test.store, sandbox, ['assets'])).outcome).toBe('success');
        // Every asset served, field for field, and no other live row: none lost, none deleted.
        const live = await liveRecords(test.store, 'assets', ASSETS.key);
        expect(live.size).toBeGreaterThan(300);
        expect(live).toEqual(expectedRecords(sandbox, ASSETS));
      } finally {
        await test.cleanup();
      }
    });
  });
}
