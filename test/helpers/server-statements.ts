// Opt-in (DS_TEST_PG_STATS=<file>): where the run's PostgreSQL server spends its time, by statement. The
// throwaway cluster loads pg_stat_statements, and before it stops the run's statements are appended to
// <file> grouped by their text with the test databases' names folded into DB: tab-separated databases,
// calls, execution ms (wall: on a loaded machine read it as a share, not as CPU), rows, text. Then the
// checkpoints (pg_stat_bgwriter): every DROP DATABASE forces one. DS_TEST_PG_SETTINGS="name=value ..."
// starts the cluster with more settings, to try one against the same files.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

/** The cluster's settings for the opt-ins above (none when neither is set). */
export function measuringSettings(): string[] {
  const stats = process.env.DS_TEST_PG_STATS
    ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.max=20000', 'pg_stat_statements.track=all']
    : [];
  return [...stats, ...(process.env.DS_TEST_PG_SETTINGS ?? '').split(' ').filter(Boolean)];
}

export async function appendStatementStats(url: string): Promise<void> {
  const file = process.env.DS_TEST_PG_STATS;
  if (!file) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    const { rows } = await client.query(`
      select count(*) n, sum(calls) calls, round(sum(total_exec_time)) ms, sum(rows) rws,
        left(regexp_replace(regexp_replace(query, 't_[0-9a-f]{6}_[0-9a-z_]+', 'DB', 'g'), '\\s+', ' ', 'g'), 140) q
      from pg_stat_statements group by q order by ms desc limit 80`);
    const lines = rows.map((r) => [r.n, r.calls, r.ms, r.rws, r.q].join('\t'));
    const { rows: bgwriter } = await client.query('select * from pg_stat_bgwriter');
    // Sessions (server backends started) of the databases still there: a dropped database's are gone with it.
    const { rows: sessions } = await client.query(
      'select count(*)::int as databases, sum(sessions)::int as sessions, sum(session_time)::int as session_ms from pg_stat_database where datname is not null',
    );
    appendFileSync(
      file,
      `${[...lines, `#checkpoints ${JSON.stringify(bgwriter[0])}`, `#sessions ${JSON.stringify(sessions[0])}`].join('\n')}\n`,
    );
  } finally {
    await client.end();
  }
}
