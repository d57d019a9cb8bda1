-- What changed in the last run: rows changed or deleted, per table
select h.table_name, h.change, count(*) as rows
from v_changes h
where h.ended_by_run_id = (select max(id) from sync_runs)
group by h.table_name, h.change
order by h.table_name, h.change;
