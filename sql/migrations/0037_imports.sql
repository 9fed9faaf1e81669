-- Runs of the importer that brings an established-tool instance across: what an admin asked for, how far it got,
-- and what it brought. The old instance's key is held sealed only while the run is queued or running (the worker
-- process needs it), and cleared when the run ends, whatever the end.
create table imports (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  user_id bigint references users on delete set null,
  from_url text not null,
  api_key_sealed text,
  dry_run boolean not null default false,
  keep_ids boolean not null default false,
  status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
  origin_version text,
  progress jsonb not null default '{}',
  report jsonb not null default '{}',
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index imports_org_created on imports (org_id, created_at desc, id desc);

-- Which Sightline object each object of an old instance became, so a second run updates instead of duplicating and
-- a run that stopped half-way resumes. `origin` is the old instance's address as normalised by the importer.
create table import_ids (
  org_id bigint not null references organizations on delete cascade,
  origin text not null,
  kind text not null,
  old_id text not null,
  new_id bigint not null,
  primary key (org_id, origin, kind, old_id)
);
