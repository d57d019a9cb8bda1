-- High-importance events per category per week (weeks start on Monday, UTC)
-- (A category the taxonomy does not name has a null name: last on both stores, which sort nulls apart.)
select e.started_week, c.category_name, count(*) as events
from v_events e
  join v_event_categories c on c.event_id = e.id
where e.importance_rank = 3
group by e.started_week, c.category_name
order by e.started_week desc, events desc, c.category_name nulls last
limit 20;
