-- A stable key per query, dashboard, alert, destination, snippet and group: what the files of a git export are named
-- by and refer to each other by, instead of database ids. A key is readable (a slug of the name), unique per
-- organization and kind, and never changes. `object_keys` remembers every key ever given, so a key given
-- automatically is never one an object had before (a file kept in git never comes to mean another object); an import
-- that names a key takes that one.
create table object_keys (
  org_id bigint not null references organizations on delete cascade,
  kind text not null,
  key text not null,
  primary key (org_id, kind, key)
);

create function object_key_slug(name text, fallback text) returns text language sql immutable as $$
  select coalesce(nullif(trim(both '-' from left(regexp_replace(lower(coalesce(name, '')), '[^a-z0-9]+', '-', 'g'), 60)), ''), fallback)
$$;

-- The first free key of `base`, `base-2`, `base-3`, … for the organization and kind, taken for good.
create function take_object_key(p_org bigint, p_kind text, p_base text) returns text language plpgsql as $$
declare
  candidate text := p_base;
  n int := 1;
begin
  loop
    insert into object_keys (org_id, kind, key) values (p_org, p_kind, candidate) on conflict do nothing;
    if found then return candidate; end if;
    n := n + 1;
    candidate := p_base || '-' || n;
  end loop;
end $$;

-- Every insert path gets a key without knowing of it: arguments are the kind and the column the key is made from.
create function assign_object_key() returns trigger language plpgsql as $$
declare
  held text;
begin
  if new.key is null and new.id is not null then
    -- an insert that will update the row of its id (on conflict) keeps that row's key and takes no other
    execute format('select key from %I where id = $1', tg_table_name) into held using new.id;
    if held is not null then
      new.key := held;
      return new;
    end if;
  end if;
  if new.key is null then
    new.key := take_object_key(new.org_id, tg_argv[0], object_key_slug(to_jsonb(new) ->> tg_argv[1], tg_argv[2]));
  else
    insert into object_keys (org_id, kind, key) values (new.org_id, tg_argv[0], new.key) on conflict do nothing;
  end if;
  return new;
end $$;

-- A key never changes once given.
create function keep_object_key() returns trigger language plpgsql as $$
begin
  new.key := old.key;
  return new;
end $$;

do $$
declare
  t record;
  r record;
begin
  for t in select * from (values
    ('queries', 'queries', 'name', 'query'),
    ('dashboards', 'dashboards', 'slug', 'dashboard'),
    ('alerts', 'alerts', 'name', 'alert'),
    ('destinations', 'destinations', 'name', 'destination'),
    ('query_snippets', 'snippets', 'trigger', 'snippet'),
    ('groups', 'groups', 'name', 'group')
  ) as v(tbl, kind, col, fallback) loop
    execute format('alter table %I add column key text', t.tbl);
    -- oldest first, so the first of two objects of one name keeps the plain key
    for r in execute format('select id, org_id, %I as name from %I order by id', t.col, t.tbl) loop
      execute format('update %I set key = take_object_key($1, $2, object_key_slug($3, $4)) where id = $5', t.tbl)
        using r.org_id, t.kind, r.name, t.fallback, r.id;
    end loop;
    execute format('alter table %I alter column key set not null', t.tbl);
    execute format('create unique index %I on %I (org_id, key)', t.tbl || '_org_key', t.tbl);
    execute format('create trigger %I before insert on %I for each row execute function assign_object_key(%L, %L, %L)',
      t.tbl || '_assign_key', t.tbl, t.kind, t.col, t.fallback);
    execute format('create trigger %I before update of key on %I for each row when (new.key is distinct from old.key) execute function keep_object_key()',
      t.tbl || '_keep_key', t.tbl);
  end loop;
end $$;
