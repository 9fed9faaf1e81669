-- Reports: a dashboard (or one visualization of a query) sent on a schedule to people, groups and destinations
-- (src/reports/). The schedule is the query schedule's shape plus `days_of_week` and `time_zone`; `next_send_at` is
-- the one field the scheduler claims (moved forward in the statement that queues a send), so two workers never
-- send the same due time twice.
create table report_subscriptions (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  user_id bigint not null references users on delete cascade,
  dashboard_id bigint references dashboards on delete cascade,
  query_id bigint references queries on delete cascade,
  visualization_id bigint references visualizations on delete cascade,
  schedule jsonb not null,
  -- [{user_id} | {group_id} | {destination_id}]
  recipients jsonb not null default '[]',
  parameters jsonb not null default '{}',
  filters jsonb not null default '{}',
  attachments text[] not null default '{}',
  skip_if_empty boolean not null default false,
  paused boolean not null default false,
  -- users who left through their unsubscribe link (a member of a group recipient leaves alone, the group stays)
  unsubscribed_user_ids bigint[] not null default '{}',
  last_sent_at timestamptz,
  next_send_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((dashboard_id is not null and query_id is null and visualization_id is null)
      or (dashboard_id is null and query_id is not null and visualization_id is not null))
);
create index report_subscriptions_due on report_subscriptions (next_send_at) where not paused;
create index report_subscriptions_org_user on report_subscriptions (org_id, user_id);
create index report_subscriptions_dashboard on report_subscriptions (dashboard_id) where dashboard_id is not null;
create index report_subscriptions_query on report_subscriptions (query_id) where query_id is not null;
