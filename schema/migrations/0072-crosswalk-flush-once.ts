// On PostgreSQL, the crosswalk's recomputation at commit (0060's asset_crosswalk_flush) ran once per row
// a transaction noted in asset_crosswalk_pending: PostgreSQL's deferred (constraint) triggers are row
// triggers only. The first call recomputed everything the transaction noted and emptied its rows; each
// later one, one per asset of a page, found nothing, at a PL/pgSQL call and an index probe apiece (64,213
// calls in a run of the test suite). Now the first statement of a transaction that notes anything also
// notes one `due` row, and the deferred trigger fires for that row alone: one recomputation a transaction,
// of the same rows, which it deletes with the rest (the `due` row too). SQLite recomputes in each
// statement's own triggers and has nothing to change.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, _t: ColumnTypes, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const statement of [
    // A statement of pending rows notes the transaction's `due` row unless it has one: a row it notes
    // itself fires this trigger again, and finds only `due` in its rows.
    `create function asset_crosswalk_note_due() returns trigger language plpgsql as $$
begin
  if exists (select 1 from new_rows where kind <> 'due')
    and not exists (select 1 from asset_crosswalk_pending p where p.txid = txid_current() and p.kind = 'due') then
    insert into asset_crosswalk_pending (txid, kind) values (txid_current(), 'due');
  end if;
  return null;
end $$`,
    `create trigger asset_crosswalk_note_due after insert on asset_crosswalk_pending referencing new table as new_rows
  for each statement execute function asset_crosswalk_note_due()`,
    'drop trigger asset_crosswalk_flush on asset_crosswalk_pending',
    // The flush reads the rows of each kind it knows and deletes every row of the transaction.
    `create constraint trigger asset_crosswalk_flush after insert on asset_crosswalk_pending deferrable initially deferred
  for each row when (new.kind = 'due') execute function asset_crosswalk_flush()`,
  ])
    await sql.raw(statement).execute(db);
}
