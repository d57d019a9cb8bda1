-- Yesterday's values: each asset's price and market cap as they were before the last run that changed
-- assets, beside today's, for the assets that changed (on a mirror the daemon keeps, the newest run is
-- usually a monitoring run that left assets alone). For any other moment, replace the subquery with a time.
-- (The versions of that moment are picked first, then looked up among the live assets by id. The moment is
-- a scalar subquery, not a join: PostgreSQL then finds the versions in the index on valid_to.) Assets the
-- service gives no rank come last, on both stores: SQLite sorts nulls first and PostgreSQL last unless told.
with as_of as (
  select started_at as t from v_runs
  where run_id = (select max(ended_by_run_id) from v_changes where table_name = 'assets')
),
then_ as materialized (
  select h.id, h.price_usd, h.market_cap_usd from v_assets_history h
  where h.valid_from <= (select t from as_of) and h.valid_to > (select t from as_of)
)
select now.title, then_.price_usd as price_before, now.price_usd as price_now,
  then_.market_cap_usd as market_cap_before, now.market_cap_usd as market_cap_now
from then_
  join v_assets now on now.id = then_.id
order by now.market_cap_rank nulls last, now.id
limit 20;
