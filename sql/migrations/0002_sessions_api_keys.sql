-- Signed-in sessions are rows, so signing out, disabling a user or changing a password revokes them at once.
create table sessions (
  -- sha256 of the cookie's token: a leaked table cannot be replayed as cookies
  token_hash bytea primary key,
  user_id bigint not null references users on delete cascade,
  remember boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  user_agent text,
  ip text
);
create index sessions_user on sessions (user_id);
create index sessions_expires on sessions (expires_at);

-- API keys. A user's own key has user_id set; keys that grant access to one object (a shared dashboard) carry
-- object_type and object_id instead.
create table api_keys (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  api_key text not null unique,
  user_id bigint references users on delete cascade,
  object_type text,
  object_id bigint,
  active boolean not null default true,
  created_by bigint references users on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((user_id is not null) <> (object_type is not null))
);
create unique index api_keys_one_per_user on api_keys (user_id) where user_id is not null and active;
create index api_keys_object on api_keys (object_type, object_id) where object_type is not null;
