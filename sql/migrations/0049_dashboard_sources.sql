-- The sources each dashboard's charts read, one row per source (null: a chart whose query lost its source), kept by
-- triggers as widgets, visualizations and queries change. Whether a member is listed a dashboard is then one indexed
-- lookup per dashboard, not a join of widgets, visualizations and queries over the whole organization.
create table dashboard_sources (
  dashboard_id bigint not null references dashboards on delete cascade,
  data_source_id bigint,
  unique nulls not distinct (dashboard_id, data_source_id)
);

-- Recomputes the rows of the given dashboards from their widgets.
create function dashboard_sources_refresh(ids bigint[]) returns void language sql as $$
  delete from dashboard_sources where dashboard_id = any(ids);
  insert into dashboard_sources (dashboard_id, data_source_id)
  select distinct w.dashboard_id, q.data_source_id
    from widgets w
    join dashboards d on d.id = w.dashboard_id
    join visualizations z on z.id = w.visualization_id
    join queries q on q.id = z.query_id
   where w.dashboard_id = any(ids);
$$;

create function dashboard_sources_widgets_added() returns trigger language plpgsql as $$
begin
  perform dashboard_sources_refresh(array(select distinct dashboard_id from new_rows where visualization_id is not null));
  return null;
end $$;
create trigger widgets_dashboard_sources_insert after insert on widgets
  referencing new table as new_rows for each statement execute function dashboard_sources_widgets_added();

create function dashboard_sources_widgets_removed() returns trigger language plpgsql as $$
begin
  perform dashboard_sources_refresh(array(select distinct dashboard_id from old_rows where visualization_id is not null));
  return null;
end $$;
create trigger widgets_dashboard_sources_delete after delete on widgets
  referencing old table as old_rows for each statement execute function dashboard_sources_widgets_removed();

create function dashboard_sources_widget_moved() returns trigger language plpgsql as $$
begin
  perform dashboard_sources_refresh(array[old.dashboard_id, new.dashboard_id]);
  return null;
end $$;
create trigger widgets_dashboard_sources_update after update of dashboard_id, visualization_id on widgets
  for each row when (old.dashboard_id is distinct from new.dashboard_id or old.visualization_id is distinct from new.visualization_id)
  execute function dashboard_sources_widget_moved();

create function dashboard_sources_visualization_moved() returns trigger language plpgsql as $$
begin
  perform dashboard_sources_refresh(array(select distinct w.dashboard_id from widgets w where w.visualization_id = new.id));
  return null;
end $$;
create trigger visualizations_dashboard_sources_update after update of query_id on visualizations
  for each row when (old.query_id is distinct from new.query_id)
  execute function dashboard_sources_visualization_moved();

create function dashboard_sources_query_moved() returns trigger language plpgsql as $$
begin
  perform dashboard_sources_refresh(array(
    select distinct w.dashboard_id from visualizations z join widgets w on w.visualization_id = z.id where z.query_id = new.id));
  return null;
end $$;
create trigger queries_dashboard_sources_update after update of data_source_id on queries
  for each row when (old.data_source_id is distinct from new.data_source_id)
  execute function dashboard_sources_query_moved();

insert into dashboard_sources (dashboard_id, data_source_id)
select distinct w.dashboard_id, q.data_source_id
  from widgets w
  join visualizations z on z.id = w.visualization_id
  join queries q on q.id = z.query_id;
