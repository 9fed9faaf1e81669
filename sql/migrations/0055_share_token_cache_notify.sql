-- Web processes keep what each live share token opens (src/dashboards/sharing.ts `sharedDashboard`): its dashboard,
-- and the rights of the user who turned sharing on. Every write that changes it tells every process at its commit,
-- whoever makes it (a request in another process, a worker, a statement typed in psql), on the cache bus's channel:
--   share:<dashboard id>  a dashboard's token is made, revoked or changed, or a shared dashboard changes or goes;
--   user:<user id>        a user is disabled, enabled or deleted, or joins or leaves a group (their rights);
--   org:<org id>          an organization's settings (public URLs may be turned off) or a group's permissions change.
-- NOTIFY sends one message per payload and transaction, so a statement touching many rows sends each once.

create function sightline_share_key_changed() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' and old.object_type = 'dashboards' then
    perform pg_notify('sightline_cache', 'share:' || old.object_id);
  end if;
  if tg_op <> 'DELETE' and new.object_type = 'dashboards' then
    perform pg_notify('sightline_cache', 'share:' || new.object_id);
  end if;
  return null;
end $$;

create trigger api_keys_share_cache_notify after insert or update or delete on api_keys
  for each row execute function sightline_share_key_changed();

-- only a dashboard with a live token is anyone's cached page
create function sightline_shared_dashboard_changed() returns trigger language plpgsql as $$
begin
  if exists (select 1 from api_keys where object_type = 'dashboards' and object_id = old.id and active) then
    perform pg_notify('sightline_cache', 'share:' || old.id);
  end if;
  return null;
end $$;

create trigger dashboards_share_cache_notify after update or delete on dashboards
  for each row execute function sightline_shared_dashboard_changed();

create function sightline_user_rights_changed() returns trigger language plpgsql as $$
declare
  changed bigint;
begin
  if tg_table_name = 'users' then
    changed := old.id;
  elsif tg_op = 'INSERT' then
    changed := new.user_id;
  else
    changed := old.user_id;
  end if;
  perform pg_notify('sightline_cache', 'user:' || changed);
  return null;
end $$;

create trigger users_rights_cache_notify after update on users
  for each row when (old.disabled_at is distinct from new.disabled_at or old.org_id is distinct from new.org_id)
  execute function sightline_user_rights_changed();
create trigger users_deleted_cache_notify after delete on users
  for each row execute function sightline_user_rights_changed();
create trigger user_groups_cache_notify after insert or delete on user_groups
  for each row execute function sightline_user_rights_changed();

create function sightline_org_rights_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('sightline_cache', 'org:' || old.org_id);
  return null;
end $$;

create trigger groups_permissions_cache_notify after update on groups
  for each row when (old.permissions is distinct from new.permissions)
  execute function sightline_org_rights_changed();

create function sightline_org_settings_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('sightline_cache', 'org:' || old.id);
  return null;
end $$;

create trigger organizations_settings_cache_notify after update on organizations
  for each row when (old.settings is distinct from new.settings)
  execute function sightline_org_settings_changed();
