-- Results of executions. Rows live in chunks of positional JSON arrays (query_result_chunks), so a result is a few
-- large values PostgreSQL compresses, not one JSON object per cell, and a download streams chunk by chunk.
create table query_results (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  data_source_id bigint not null references data_sources on delete cascade,
  -- md5 of the normalised text that ran (src/executions/hash.ts): the cache key together with the source
  query_hash text not null,
  query_text text not null,
  -- [{name, friendly_name, type}] as the browser reads them
  columns jsonb not null,
  row_count int not null,
  truncated boolean not null default false,
  log jsonb not null default '[]',
  metadata jsonb not null default '{}',
  -- seconds
  runtime double precision not null,
  retrieved_at timestamptz not null default now()
);
create index query_results_fresh on query_results (data_source_id, query_hash, retrieved_at desc);
create index query_results_retrieved on query_results (retrieved_at);

create table query_result_chunks (
  result_id bigint not null references query_results on delete cascade,
  seq int not null,
  -- the JSON text of an array of row arrays, in column order, deflated by Sightline (src/results/chunk-codec.ts)
  rows bytea not null,
  primary key (result_id, seq)
);
-- already compressed: PostgreSQL need not try again
alter table query_result_chunks alter column rows set storage external;

create table queries (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  -- null when its source was deleted: the query is kept (it is someone's work) and shown to its owner and admins
  data_source_id bigint references data_sources on delete set null,
  user_id bigint not null references users,
  last_modified_by_id bigint references users on delete set null,
  name text not null default 'New Query' check (length(name) <= 255),
  description text check (length(description) <= 4096),
  query text not null default '',
  query_hash text not null default '',
  api_key text not null unique,
  is_draft boolean not null default true,
  is_archived boolean not null default false,
  -- {interval, time, day_of_week, until} or null
  schedule jsonb,
  schedule_failures int not null default 0,
  -- when the next scheduled refresh is due (null: not scheduled)
  schedule_next_at timestamptz,
  options jsonb not null default '{}',
  tags text[] not null default '{}',
  -- bumped on every save; a save that names an older version is refused with 409
  version int not null default 1,
  latest_query_data_id bigint references query_results on delete set null,
  search_vector tsvector generated always as (
    setweight(to_tsvector('simple', coalesce(name, '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(description, '')), 'C') ||
    setweight(to_tsvector('simple', query), 'D')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index queries_org_created on queries (org_id, created_at desc);
create index queries_user on queries (user_id);
create index queries_source_hash on queries (data_source_id, query_hash) where not is_archived;
create index queries_search on queries using gin (search_vector);
create index queries_tags on queries using gin (tags);
create index queries_schedule_due on queries (schedule_next_at) where schedule_next_at is not null;

-- Every saved state of a query, so any earlier text can be read back and restored as a new version.
create table query_versions (
  query_id bigint not null references queries on delete cascade,
  version int not null,
  user_id bigint references users on delete set null,
  name text not null,
  description text,
  query text not null,
  data_source_id bigint,
  options jsonb not null,
  tags text[] not null,
  schedule jsonb,
  created_at timestamptz not null default now(),
  primary key (query_id, version)
);

create table visualizations (
  id bigint generated always as identity primary key,
  query_id bigint not null references queries on delete cascade,
  type text not null,
  name text not null check (length(name) <= 255),
  description text not null default '',
  options jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index visualizations_query on visualizations (query_id);

create table favorites (
  user_id bigint not null references users on delete cascade,
  object_type text not null check (object_type in ('query', 'dashboard')),
  object_id bigint not null,
  created_at timestamptz not null default now(),
  primary key (user_id, object_type, object_id)
);
create index favorites_object on favorites (object_type, object_id);

-- Per-object grants beyond ownership (Manage Permissions); access_type is 'modify'.
create table access_permissions (
  id bigint generated always as identity primary key,
  object_type text not null check (object_type in ('query', 'dashboard')),
  object_id bigint not null,
  access_type text not null default 'modify',
  grantor_id bigint references users on delete set null,
  grantee_id bigint not null references users on delete cascade,
  unique (object_type, object_id, access_type, grantee_id)
);

create table query_snippets (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  trigger text not null check (length(trim(trigger)) > 0 and length(trigger) <= 255),
  description text not null default '',
  snippet text not null,
  user_id bigint references users on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, trigger)
);

-- One row per execution: the state api/jobs/{id} reports. graphile-worker deletes its jobs when they finish, so
-- the job's life is kept here. status: 1 waiting, 2 processing, 3 done, 4 failed (spec 1 §4).
create table executions (
  id uuid primary key default gen_random_uuid(),
  org_id bigint not null references organizations on delete cascade,
  data_source_id bigint not null references data_sources on delete cascade,
  query_id bigint references queries on delete set null,
  user_id bigint references users on delete set null,
  query_hash text not null,
  query_text text not null,
  scheduled boolean not null default false,
  status smallint not null default 1 check (status between 1 and 4),
  error text,
  query_result_id bigint references query_results on delete set null,
  -- the source's queue as the monitoring pages name it ('ds:<source id>')
  queue text not null,
  -- the worker running it, for crash recovery
  worker_id text,
  attempts int not null default 0,
  cancel_requested boolean not null default false,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
-- Identical executions in flight share one row: an insert that collides joins the running one.
create unique index executions_in_flight on executions (data_source_id, query_hash) where status in (1, 2);
-- At most one scheduled refresh of a query in flight.
create unique index executions_refresh_in_flight on executions (query_id) where scheduled and status in (1, 2);
create index executions_running_by_worker on executions (worker_id) where status = 2;
create index executions_finished on executions (finished_at) where status in (3, 4);

-- Each worker process writes here every few seconds; one that stops writing is dead, and its jobs are unlocked
-- and its executions retried or failed (graphile-worker alone would keep them locked for hours).
create table worker_heartbeats (
  worker_id text primary key,
  hostname text not null,
  pid int not null,
  concurrency int not null,
  started_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  jobs_done bigint not null default 0,
  jobs_failed bigint not null default 0
);
