-- Organizations, their users and groups. A user's permissions are the union of their groups' permissions.
create extension if not exists citext;

create table organizations (
  id bigint generated always as identity primary key,
  name text not null check (length(trim(name)) > 0),
  slug text not null unique,
  -- Organization settings (spec 3 §3): only values that differ from the defaults are stored.
  settings jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table groups (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  type text not null default 'regular' check (type in ('builtin', 'regular')),
  name text not null check (length(trim(name)) > 0),
  permissions text[] not null,
  created_at timestamptz not null default now(),
  unique (org_id, name)
);

create table users (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  name text not null check (length(trim(name)) > 0),
  email citext not null,
  -- null for users who only sign in through an external provider
  password_hash text,
  profile_image_url text,
  is_invitation_pending boolean not null default false,
  is_email_verified boolean not null default true,
  disabled_at timestamptz,
  active_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, email)
);

create table user_groups (
  user_id bigint not null references users on delete cascade,
  group_id bigint not null references groups on delete cascade,
  primary key (user_id, group_id)
);
create index user_groups_group on user_groups (group_id);
