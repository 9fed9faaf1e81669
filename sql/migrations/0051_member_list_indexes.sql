-- The tag filter beside a member's query list counts the tags of the queries on their sources: with the source in
-- the index of tagged queries (0007 had the organization only) that count reads this index alone, as the admin's
-- does, instead of fetching every tagged query's row (6,700 pages at 100,000 queries) to check its source.
create index queries_list_tagged_source on queries (org_id, data_source_id) include (tags) where tags <> '{}' and not is_archived;
drop index queries_list_tagged;
