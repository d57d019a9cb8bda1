// The crosswalk's insert trigger on `assets` as migrations 0060 and 0064 leave it in sqlite_master, kept
// here so that a process may set it aside for a whole first load (sqlite-idle-triggers.ts) and any
// process may create it again from this text after one was killed meanwhile (the repeatable object
// `deferred-indexes`). test/store/first-load.test.ts checks that a new file's schema holds exactly this
// text; a migration that changes the trigger changes this file too (else nothing is set aside: the
// file's text no longer matches).

/** Which sources a new asset may link: those whose keys meet its slug, code or title (0060's meetsAsset). */
const MEETS_NEW = '(x.source_slug in (new.slug) or x.symbol_key in (lower(new.code)) or x.name_key in (lower(new.title)))';

export const CROSSWALK_ASSETS_INSERT = `CREATE TRIGGER asset_crosswalk_assets_insert after insert on assets for each row
  when exists (select 1 from asset_crosswalk x where x.source_slug = new.slug or x.symbol_key = lower(new.code) or x.name_key = lower(new.title))
begin
  insert into asset_crosswalk (source, source_asset_id, v1_asset_id, match_method, confidence, candidates)
select s.source, s.source_asset_id, r.v1_asset_id, r.match_method, r.base_confidence / r.ties, r.ties
from (select x.source, x.source_asset_id, x.source_slug, lower(x.symbol_key) as symbol_key, lower(x.name_key) as name_key
    from asset_crosswalk x where ${MEETS_NEW}) s left join (
  select b.*, count(*) over (partition by b.source, b.source_asset_id) as ties,
    row_number() over (partition by b.source, b.source_asset_id order by b.market_cap_rank is null, b.market_cap_rank, b.v1_asset_id) as n
  from (
    select c.*, max(c.base_confidence) over (partition by c.source, c.source_asset_id) as top from (
  select s.source, s.source_asset_id, a.id as v1_asset_id, 'slug' as match_method, cast(0.95 as real) as base_confidence, a.market_cap_rank
  from (select x.source, x.source_asset_id, x.source_slug, lower(x.symbol_key) as symbol_key, lower(x.name_key) as name_key
    from asset_crosswalk x where ${MEETS_NEW}) s cross join assets a where a.deleted_at is null and a.slug = s.source_slug
  union all
  select s.source, s.source_asset_id, a.id as v1_asset_id, 'symbol_and_name' as match_method, cast(0.9 as real) as base_confidence, a.market_cap_rank
  from (select x.source, x.source_asset_id, x.source_slug, lower(x.symbol_key) as symbol_key, lower(x.name_key) as name_key
    from asset_crosswalk x where ${MEETS_NEW}) s cross join assets a where a.deleted_at is null and lower(a.code) = s.symbol_key and lower(a.title) = s.name_key
  union all
  select s.source, s.source_asset_id, a.id as v1_asset_id, 'name' as match_method, cast(0.6 as real) as base_confidence, a.market_cap_rank
  from (select x.source, x.source_asset_id, x.source_slug, lower(x.symbol_key) as symbol_key, lower(x.name_key) as name_key
    from asset_crosswalk x where ${MEETS_NEW}) s cross join assets a where a.deleted_at is null and lower(a.title) = s.name_key
  union all
  select s.source, s.source_asset_id, a.id as v1_asset_id, 'symbol' as match_method, cast(0.4 as real) as base_confidence, a.market_cap_rank
  from (select x.source, x.source_asset_id, x.source_slug, lower(x.symbol_key) as symbol_key, lower(x.name_key) as name_key
    from asset_crosswalk x where ${MEETS_NEW}) s cross join assets a where a.deleted_at is null and lower(a.code) = s.symbol_key
    ) c
  ) b where b.base_confidence = b.top
) r on r.source = s.source and r.source_asset_id = s.source_asset_id and r.n = 1
where true
on conflict (source, source_asset_id) do update set v1_asset_id = excluded.v1_asset_id, match_method = excluded.match_method, confidence = excluded.confidence, candidates = excluded.candidates;
end`;

/**
 * What the trigger maintains, for every asset at once: each crosswalk row's link recomputed from all live
 * assets (0060's recomputation over every row, as refillCrosswalk ends), for the assets inserted while it
 * was away. Its body with the rows the new asset meets widened to all.
 */
export const CROSSWALK_ALL_LINKS = CROSSWALK_ASSETS_INSERT.slice(
  CROSSWALK_ASSETS_INSERT.indexOf('\nbegin\n') + '\nbegin\n'.length,
  CROSSWALK_ASSETS_INSERT.lastIndexOf(';\nend'),
)
  .trim()
  .replaceAll(MEETS_NEW, 'true');
