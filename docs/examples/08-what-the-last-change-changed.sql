-- What changed in each table the last time it changed: per table, the last run that changed or deleted
-- rows of it (not the newest run, usually a quiet five-minute monitoring run), its job and start, and the
-- rows it changed or deleted (counted in v_changes' index first, then each count joined to its run)
with last_change as (
  select table_name, max(ended_by_run_id) as run_id from v_changes group by table_name
),
changed as (
  select h.table_name, h.ended_by_run_id as run_id, h.change, count(*) as rows
  from v_changes h
    join last_change l on l.table_name = h.table_name and l.run_id = h.ended_by_run_id
  group by h.table_name, h.ended_by_run_id, h.change
)
select c.table_name, c.run_id, r.job, r.started_at, c.change, c.rows
from changed c
  join v_runs r on r.run_id = c.run_id
order by c.table_name, c.change;
