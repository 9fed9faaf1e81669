-- SAML sign-in: the authentication requests Sightline sent and is waiting on (a response must answer one of them, once),
-- kept in the database so any web process can take the answer to a request another one sent.
create table saml_requests (
  id text primary key,
  org_id bigint not null references organizations(id) on delete cascade,
  created_at timestamptz not null default now()
);
create index saml_requests_created on saml_requests (created_at);

-- Assertions already used to sign in, until they would have expired anyway: the same assertion never signs in twice,
-- even when two processes receive it at the same moment.
create table saml_used_assertions (
  org_id bigint not null references organizations(id) on delete cascade,
  assertion_id text not null,
  expires_at timestamptz not null,
  primary key (org_id, assertion_id)
);
create index saml_used_assertions_expires on saml_used_assertions (expires_at);
