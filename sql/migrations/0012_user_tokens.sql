-- Invitation and password-reset links: each link's token is kept only as its sha-256, bound to one user and one
-- purpose, and stops working once used or past its expiry, so a link that leaked after use opens nothing.
create table user_tokens (
  token_hash bytea primary key,
  user_id bigint not null references users (id) on delete cascade,
  purpose text not null check (purpose in ('invite', 'reset')),
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index user_tokens_user on user_tokens (user_id);
