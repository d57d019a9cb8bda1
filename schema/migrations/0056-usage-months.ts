// The month's spend as one row per quota family and calendar month, beside the days. A reservation
// took the month's other days as read before its conditional update of today's row, so two workers
// whose clocks fell on two days of one month (either side of UTC midnight, or a clock stepped back)
// could each pass the month's quota. Every reservation now updates its month's row conditionally too,
// which serialises them on both stores. Filled from the days already counted.
import { sql, type Kysely } from 'kysely';
import type { ColumnTypes, Dialect } from '../../src/store/types.js';

export async function up(db: Kysely<any>, t: ColumnTypes, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('usage_months')
    .addColumn('family', t.text, (c) => c.notNull())
    .addColumn('month', t.text, (c) => c.notNull()) // YYYY-MM, UTC
    .addColumn('requests', t.bigint, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_months_pk', ['family', 'month'])
    .execute();
  const month = dialect === 'postgres' ? `to_char(day, 'YYYY-MM')` : 'substr(day, 1, 7)';
  await sql
    .raw(
      `insert into usage_months (family, month, requests)
select family, ${month}, sum(requests) from usage_ledger group by family, ${month}`,
    )
    .execute(db);
}
