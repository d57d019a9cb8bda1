-- Top tokens by market capitalisation, with price and 24-hour change
select market_cap_rank, title, code, market_cap_usd, price_usd, percent_change_usd_24h
from v_assets
where asset_class = 'token' and market_cap_rank is not null
order by market_cap_rank, id
limit 10;
