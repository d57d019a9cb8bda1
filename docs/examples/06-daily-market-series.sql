-- The daily market series: total market cap, volume and Bitcoin dominance, last 30 days mirrored
select date, total_market_cap_usd, total_volume_24h_usd, btc_dominance
from v_market_stats_daily
order by date desc
limit 30;
