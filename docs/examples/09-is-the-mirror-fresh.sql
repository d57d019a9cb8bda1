-- Is the mirror fresh? Each scheduled stream's table, the jobs that keep it, its last success, its age and
-- whether it is stale against its schedule (the stale ones first)
select stream, table_name, jobs, schedules, last_success_at, age_seconds, live_rows, stale
from v_streams
where jobs is not null
order by stale desc, stream;
