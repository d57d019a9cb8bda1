-- Token unlocks still ahead: assets whose unlock schedule has not ended, soonest end first
select name, symbol, sector, genesis_date, projected_end_date
from v_token_unlocks
where projected_end_date > now()
order by projected_end_date, id
limit 20;
