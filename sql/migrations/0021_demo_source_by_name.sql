-- The Demo source names the shop Sightline provides (`sightline:demo`) instead of the file in the data directory of
-- the web process that served setup: each process opens the copy in its own data directory, building it on first
-- use, so workers on other machines answer Demo queries too. Sources set up by earlier releases are pointed there;
-- the shop is the same dataset, generated the same way.
update data_sources
   set options = jsonb_set(options, '{dbpath}', '"sightline:demo"'), updated_at = now()
 where type = 'duckdb'
   and options->>'dbpath' like '%/demo/shop.duckdb'
   and options->'read_only' = 'true';
