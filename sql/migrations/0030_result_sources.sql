-- A result of a Query Results query lists every data source it read (the referenced queries' sources, at every
-- depth), so reading it checks in one look that the reader may read each of them. Null for other results.
alter table query_results add column source_ids bigint[];
