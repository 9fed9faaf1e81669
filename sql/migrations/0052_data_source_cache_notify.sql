-- Web processes keep data sources and the groups that may use them in memory (src/data-sources/cached.ts). Every
-- write to either tells every process at its commit, whoever makes it (an admin's request, an import in a worker, a
-- statement typed in psql), on the cache bus's channel: `data_source:<id>`. NOTIFY sends one message per payload and
-- transaction, so a statement touching many rows of one source sends one.
create function sightline_data_source_changed() returns trigger language plpgsql as $$
declare
  changed bigint[];
begin
  if tg_table_name = 'data_sources' then
    changed := array[old.id];
  elsif tg_op = 'INSERT' then
    changed := array[new.data_source_id];
  elsif tg_op = 'DELETE' then
    changed := array[old.data_source_id];
  else
    changed := array[old.data_source_id, new.data_source_id];
  end if;
  perform pg_notify('sightline_cache', 'data_source:' || id) from unnest(changed) id;
  return null;
end $$;

create trigger data_sources_cache_notify after update or delete on data_sources
  for each row execute function sightline_data_source_changed();
create trigger data_source_groups_cache_notify after insert or update or delete on data_source_groups
  for each row execute function sightline_data_source_changed();
