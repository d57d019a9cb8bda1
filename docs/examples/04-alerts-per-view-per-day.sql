-- Alerts per monitoring view per day, by how the mirror knows them (webhook, reconstructed from the view's predicates, or both), on the day the match happened, leaving out an older release's per-event backfill ('event-match'); by view_label, so views that share a name stay apart
select matched_on, view_label, known_by, cast(sum(alerts) as integer) as alerts
from v_alerts_per_day
where known_by <> 'event-match'
group by matched_on, view_label, known_by
order by matched_on desc, view_label, known_by
limit 20;
