-- Yesterday's values: each asset's price and market cap as they were before the last run that changed
-- assets, beside today's, for the assets that changed (on a mirror the daemon keeps, the newest run is
-- usually a monitoring run that left assets alone). The values before that run are the versions it ended
-- (v_changes, by its index on the table, the run, the change and the key): the 20 assets shown are picked
-- first, and only their 20 versions are read (a monthly pass ends nearly every asset's version). For
-- another moment, v_assets_history holds every version with its valid_from and valid_to. Assets the
-- service gives no rank come last, on both stores: SQLite sorts nulls first and PostgreSQL last unless told.
with last_run as (
  select max(ended_by_run_id) as run_id from v_changes where table_name = 'assets'
),
shown as (
  select now.id, now.market_cap_rank, c.ended_by_run_id, c.change, c.row_key
  from last_run l
    join v_changes c on c.table_name = 'assets' and c.ended_by_run_id = l.run_id
    join v_assets now on now.id = cast(c.row_key as bigint)
  order by now.market_cap_rank nulls last, now.id
  limit 20
)
select now.title,
  case when jsonb_typeof(c.raw #> '{price,usd}') = 'number' then (c.raw #>> '{price,usd}')::double precision end as price_before,
  now.price_usd as price_now,
  case when jsonb_typeof(c.raw #> '{market_cap,usd}') = 'number' then (c.raw #>> '{market_cap,usd}')::double precision end as market_cap_before,
  now.market_cap_usd as market_cap_now
from shown s
  join v_assets now on now.id = s.id
  join v_changes c on c.table_name = 'assets' and c.ended_by_run_id = s.ended_by_run_id and c.change = s.change and c.row_key = s.row_key
order by s.market_cap_rank nulls last, s.id;
