-- Yesterday's values: each asset's price and market cap as they were before the last run that changed
-- assets, beside today's, for the assets that changed (on a mirror the daemon keeps, the newest run is
-- usually a monitoring run that left assets alone). For any other moment, replace the subquery with a time.
with as_of as (
  select started_at as t from v_runs
  where run_id = (select max(ended_by_run_id) from v_changes where table_name = 'assets')
)
select now.title, then_.price_usd as price_before, now.price_usd as price_now,
  then_.market_cap_usd as market_cap_before, now.market_cap_usd as market_cap_now
from v_assets now
  join v_assets_history then_ on then_.id = now.id
  cross join as_of
where then_.valid_from <= as_of.t and (then_.valid_to is null or then_.valid_to > as_of.t)
  and then_.valid_to is not null
order by now.market_cap_rank, now.id
limit 20;
