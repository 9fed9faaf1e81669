-- The audit log page reads what Sightline recorded itself, newest first, a page at a time: keyset paging on
-- (created_at, id) over this index stays fast however many events there are.
create index events_audit_page on events (org_id, created_at desc, id desc) where not from_browser;
create index events_audit_by_user on events (user_id, created_at desc, id desc) where not from_browser;

-- Sessions get a public id (the token's hash never leaves the server) and the time they were last used.
alter table sessions add column id bigint generated always as identity;
alter table sessions add constraint sessions_id_unique unique (id);
alter table sessions add column last_seen_at timestamptz not null default now();
