-- People who sign in through an identity provider (OpenID Connect, Google, an access proxy's JWT) are remembered by
-- the provider's own name for them (issuer + subject), which never changes, rather than by e-mail, which can.
create table external_identities (
  provider text not null,
  subject text not null,
  user_id bigint not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (provider, subject)
);
create index external_identities_user on external_identities (user_id);

-- A sign-in sent to a provider and not yet back: its state (kept only as a sha-256), the PKCE verifier and nonce
-- the answer must match, and where to go afterwards. Deleted when the answer comes, so a state works once.
create table sign_in_flows (
  state_hash bytea primary key,
  method text not null check (method in ('oidc', 'google')),
  code_verifier text not null,
  nonce text not null,
  next_path text not null,
  expires_at timestamptz not null
);
create index sign_in_flows_expiry on sign_in_flows (expires_at);

-- The break-glass link an operator prints on the server (`sightline sign-in-link`): a user link like the others.
alter table user_tokens drop constraint user_tokens_purpose_check;
alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('invite', 'reset', 'verify', 'sign_in'));
