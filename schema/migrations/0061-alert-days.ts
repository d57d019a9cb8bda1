// Alerts per view and day (v_alerts_per_day) counted as alerts are written, by triggers in the same
// transaction as the receiver's and the backfill's writes: counting a million alerts through v_alerts
// took 4.6 s at scale 10 on SQLite, where a dashboard's budget is 1 s. One row per (view, the name the
// alert carried, day of the match, how it first arrived, how it is known) with its count; a count
// that falls to 0 is deleted. The day and the known_by rule are v_alerts's own.
// SQLite counts row by row. PostgreSQL counts per statement from its transition tables, in key order:
// receivers sharing a database then lock the counters in the same order and cannot deadlock.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('alert_days')
    .addColumn('view_id', t.text, (c) => c.notNull())
    // '' when the alert carried no name: a key cannot be null.
    .addColumn('view_name', t.text, (c) => c.notNull())
    .addColumn('matched_on', dialect === 'postgres' ? 'date' : t.text, (c) => c.notNull())
    .addColumn('source', t.text, (c) => c.notNull())
    .addColumn('known_by', t.text, (c) => c.notNull())
    .addColumn('alerts', t.bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_days_key', [...KEY])
    .execute();
  await db.schema.createIndex('alert_days_matched_on').on('alert_days').column('matched_on').execute();
  const statements = dialect === 'sqlite' ? sqliteTriggers() : postgresTriggers();
  await sql.raw(`insert into alert_days (${KEY.join(', ')}, alerts) ${bucketsOf('alert_history a', dialect)}`).execute(db);
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const KEY = ['view_id', 'view_name', 'matched_on', 'source', 'known_by'] as const;

/** The key of alert_history row `a` in alert_days, as a select list. */
function bucket(a: string, dialect: Dialect): string[] {
  const matched = `coalesce(${a}.matched_at, ${a}.first_seen_at)`;
  return [
    `${a}.view_id`,
    `coalesce(${a}.view_name, '')`,
    // A time SQLite cannot read would give a null day, which a key cannot hold: its first ten characters then.
    dialect === 'postgres' ? `(${matched} at time zone 'UTC')::date` : `coalesce(date(${matched}), substr(${matched}, 1, 10))`,
    `${a}.source`,
    `case when ${a}.webhook_at is not null and ${a}.reconstructed_at is not null then 'both' when ${a}.webhook_at is not null then 'webhook'
      when ${a}.reconstructed_at is not null then 'reconstructed' else 'event-match' end`,
  ];
}

/** Counts per bucket of the alerts in `from` (alias a), in key order. */
function bucketsOf(from: string, dialect: Dialect, sign = ''): string {
  return `select ${bucket('a', dialect).join(', ')}, ${sign}count(*) from ${from} group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`;
}

const addTo = `on conflict (${KEY.join(', ')}) do update set alerts = alert_days.alerts + excluded.alerts`;
const emptied = 'delete from alert_days where alerts = 0';

function sqliteTriggers(): string[] {
  const is = (a: string) => bucket(a, 'sqlite').map((e, i) => `${KEY[i]} = ${e}`);
  const add = (a: string) => `insert into alert_days (${KEY.join(', ')}, alerts) values (${bucket(a, 'sqlite').join(', ')}, 1) ${addTo}`;
  const remove = (a: string) => [
    `update alert_days set alerts = alerts - 1 where ${is(a).join(' and ')}`,
    `${emptied} and ${is(a).join(' and ')}`,
  ];
  const moved = bucket('old', 'sqlite')
    .map((e, i) => `${e} is not ${bucket('new', 'sqlite')[i]}`)
    .join(' or ');
  const trigger = (event: string, when: string | null, statements: readonly string[]) =>
    `create trigger alert_days_${event} after ${event} on alert_history for each row${when ? `\n  when ${when}` : ''}
begin
  ${statements.join(';\n  ')};
end`;
  return [
    trigger('insert', null, [add('new')]),
    trigger('update', moved, [...remove('old'), add('new')]),
    trigger('delete', null, remove('old')),
  ];
}

function postgresTriggers(): string[] {
  const insertCounts = (table: string, sign = '') =>
    `insert into alert_days (${KEY.join(', ')}, alerts) ${bucketsOf(table, 'postgres', sign)} ${addTo}`;
  const fn = (event: string, statements: readonly string[], tables: string) => [
    `create function alert_days_${event}() returns trigger language plpgsql as $$
begin
  ${statements.join(';\n  ')};
  return null;
end $$`,
    `create trigger alert_days_${event} after ${event} on alert_history referencing ${tables} for each statement execute function alert_days_${event}()`,
  ];
  const key = KEY.map((k) => `d.${k}`).join(', ');
  return [
    ...fn('insert', [insertCounts('new_alerts a')], 'new table as new_alerts'),
    ...fn(
      'update',
      [
        `insert into alert_days (${KEY.join(', ')}, alerts)
  select ${key}, sum(d.n) from (
    select ${bucket('a', 'postgres').join(', ')}, -1 from old_alerts a
    union all select ${bucket('a', 'postgres').join(', ')}, 1 from new_alerts a
  ) d (${KEY.join(', ')}, n) group by ${key} having sum(d.n) <> 0 order by ${key}
  ${addTo}`,
        `${emptied} and (${KEY.join(', ')}) in (select ${bucket('a', 'postgres').join(', ')} from old_alerts a)`,
      ],
      'old table as old_alerts new table as new_alerts',
    ),
    ...fn(
      'delete',
      [
        insertCounts('old_alerts a', '-'),
        `${emptied} and (${KEY.join(', ')}) in (select ${bucket('a', 'postgres').join(', ')} from old_alerts a)`,
      ],
      'old table as old_alerts',
    ),
  ];
}
