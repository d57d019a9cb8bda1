-- Most-discussed assets in monitoring events, with their `/v1` sector and market cap (via the crosswalk)
select ea.name, ea.symbol, count(distinct ea.event_id) as events, a.sector, a.market_cap_usd, ea.match_method
from v_event_assets ea
  left join v_assets a on a.id = ea.v1_asset_id
group by ea.asset_id, ea.name, ea.symbol, a.sector, a.market_cap_usd, ea.match_method
order by events desc, ea.name, ea.asset_id
limit 10;
