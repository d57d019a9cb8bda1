-- Alerts per monitoring view per day, by source (webhook or backfill), on the day the match happened (by view_label: views that share a name stay apart)
select matched_on, view_label, source, count(*) as alerts
from v_alerts
group by matched_on, view_label, source
order by matched_on desc, view_label, source
limit 20;
