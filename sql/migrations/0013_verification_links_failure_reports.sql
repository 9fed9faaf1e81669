-- Email verification links are user links like invitations and resets: single-use, bound to their purpose, expiring.
alter table user_tokens drop constraint user_tokens_purpose_check;
alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('invite', 'reset', 'verify'));

-- Failed scheduled runs waiting to be reported to their query's owner: gathered into one mail per owner by the
-- send_failure_report task, which takes (deletes) the rows it reports.
create table scheduled_query_failures (
  id bigint generated always as identity primary key,
  user_id bigint not null references users (id) on delete cascade,
  query_id bigint not null references queries (id) on delete cascade,
  error text not null,
  schedule_failures integer not null,
  failed_at timestamptz not null default now()
);
create index scheduled_query_failures_user on scheduled_query_failures (user_id);
create index scheduled_query_failures_query on scheduled_query_failures (query_id);
