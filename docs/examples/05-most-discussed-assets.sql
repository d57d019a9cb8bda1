-- Most-discussed assets in monitoring events, with their `/v1` sector and market cap where the crosswalk is sure (confidence >= 0.6)
select ea.name, ea.symbol, count(distinct ea.event_id) as events, a.sector, a.market_cap_usd, x.match_method, x.confidence
from v_event_assets ea
  left join v_asset_crosswalk x on x.source = 'monitoring' and x.source_asset_id = ea.asset_id and x.confidence >= 0.6
  left join v_assets a on a.id = x.v1_asset_id
group by ea.asset_id, ea.name, ea.symbol, a.sector, a.market_cap_usd, x.match_method, x.confidence
order by events desc, ea.name, ea.asset_id
limit 10;
