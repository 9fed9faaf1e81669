-- A member's lists are filtered on the sources of their groups, looked up before the list is read
-- (src/queries/store.ts, withReadableSources): with the source next to the columns every query list filters on, a
-- member's count of queries reads this index alone, as an admin's count reads queries_list_created.
create index queries_list_source on queries (org_id, is_archived, data_source_id);
