-- Alerts per monitoring view per day, by source (webhook or backfill), on the day the match happened
select matched_on, view_name, source, count(*) as alerts
from v_alerts
group by matched_on, view_name, source
order by matched_on desc, view_name, source
limit 20;
