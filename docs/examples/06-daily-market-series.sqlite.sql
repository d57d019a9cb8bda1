-- The daily market series of the last 30 days: total market cap, volume and Bitcoin dominance
select date, total_market_cap_usd, total_volume_24h_usd, btc_dominance
from v_market_stats_daily
where date >= date('now', '-30 days')
order by date desc;
