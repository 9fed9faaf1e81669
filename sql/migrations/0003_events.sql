-- The audit log: every change and every usage event the browser reports.
create table events (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  user_id bigint references users on delete set null,
  action text not null,
  object_type text not null,
  object_id text,
  additional_properties jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index events_org_created on events (org_id, created_at desc);
create index events_object on events (object_type, object_id);
