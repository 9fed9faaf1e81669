-- SCIM provisioning: one bearer token per organization, stored only as its hash (shown once when made). Revoking it
-- deletes the row, so the next request with it is refused.
create table scim_tokens (
  org_id bigint primary key references organizations(id) on delete cascade,
  token_hash bytea not null unique,
  created_by bigint references users(id) on delete set null,
  created_at timestamptz not null default now()
);

-- The identity provider's own id for a user or group it provisioned (SCIM externalId), echoed back as it was sent.
alter table users add column scim_external_id text;
alter table groups add column scim_external_id text;
