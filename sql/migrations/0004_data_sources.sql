-- Configured connections to engines. Non-secret options are plain JSON; secrets (passwords, tokens, key files)
-- are one AES-GCM sealed JSON object, opened only where a runner needs them.
create table data_sources (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  name text not null check (length(trim(name)) > 0),
  type text not null,
  options jsonb not null default '{}',
  secrets text,
  paused boolean not null default false,
  pause_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, name)
);

-- Which groups may use a source; view_only members may read results but not run new query text.
create table data_source_groups (
  data_source_id bigint not null references data_sources on delete cascade,
  group_id bigint not null references groups on delete cascade,
  view_only boolean not null default false,
  primary key (data_source_id, group_id)
);
create index data_source_groups_group on data_source_groups (group_id);

-- The last schema read from each source, kept as the JSON text the API sends, so serving it costs no re-encoding.
create table data_source_schemas (
  data_source_id bigint primary key references data_sources on delete cascade,
  schema_json text not null,
  table_count int not null,
  refreshed_at timestamptz not null default now()
);

-- Background work a user waits for (schema refreshes now; query executions later), polled on api/jobs/{id}.
-- status: 1 waiting, 2 processing, 3 done, 4 failed (spec 1 §4).
create table jobs (
  id uuid primary key default gen_random_uuid(),
  org_id bigint not null references organizations on delete cascade,
  kind text not null,
  status smallint not null default 1 check (status between 1 and 4),
  error text,
  data_source_id bigint references data_sources on delete cascade,
  user_id bigint references users on delete set null,
  query_result_id bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index jobs_unfinished on jobs (kind, data_source_id) where status in (1, 2);
