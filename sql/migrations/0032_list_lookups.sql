-- A member's dashboard list asks which visualizations show a query on one of their sources: the queries of those
-- sources, by id, are read from this index alone instead of from the whole queries table.
create index queries_source_id on queries (data_source_id, id);
