-- Alert destinations (spec 3 §2, reference §1.7): where notifications go. Like data sources, a destination is a
-- configured type: plain options as JSON, secret fields (webhook URLs with tokens, passwords) sealed in `secrets`.
create table destinations (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  user_id bigint references users on delete set null,
  name text not null check (length(trim(name)) > 0 and length(name) <= 255),
  type text not null,
  options jsonb not null default '{}',
  secrets text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, name)
);
