-- The sources each dashboard's charts read move from the rows of dashboard_sources (0049) onto the dashboard itself,
-- as a sorted array (a null in it: a chart whose query lost its source), kept by the same triggers. A member's
-- dashboard list then checks each dashboard with `source_ids && <their sources>` on the row it reads anyway: the
-- count is one pass over the dashboards and a page stops after its rows in creation order, where the table of 0049
-- was hashed whole (28,000 rows for 10,000 dashboards) twice per statement, three statements per list.
alter table dashboards add column source_ids bigint[] not null default '{}';

-- Recomputes the given dashboards' sources from their widgets; rows whose sources did not change are not written.
create or replace function dashboard_sources_refresh(ids bigint[]) returns void language sql as $$
  update dashboards d set source_ids = s.source_ids
    from (
      select i.id, coalesce((
        select array_agg(distinct q.data_source_id order by q.data_source_id)
          from widgets w
          join visualizations z on z.id = w.visualization_id
          join queries q on q.id = z.query_id
         where w.dashboard_id = i.id), '{}') as source_ids
      from unnest($1) i(id)) s
   where d.id = s.id and d.source_ids is distinct from s.source_ids;
$$;

update dashboards d set source_ids = s.source_ids
  from (
    select w.dashboard_id, array_agg(distinct q.data_source_id order by q.data_source_id) as source_ids
      from widgets w
      join visualizations z on z.id = w.visualization_id
      join queries q on q.id = z.query_id
     group by w.dashboard_id) s
 where d.id = s.dashboard_id;

drop table dashboard_sources;
