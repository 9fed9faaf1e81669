-- Alerts (spec 2 §3, reference §1.4–§1.5): one value of a saved query's result watched against a threshold.
-- `options` keeps the established tool's document (column, op, value, selector, custom_subject, custom_body, muted)
-- plus `parameters`, the values an alert on a parameterised query runs it with, every `check_interval` seconds.
create table alerts (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  user_id bigint not null references users,
  query_id bigint not null references queries on delete cascade,
  name text not null check (length(name) <= 255),
  options jsonb not null default '{}',
  state text not null default 'unknown' check (state in ('unknown', 'ok', 'triggered')),
  -- set on every state change (and each re-notification), as the established tool does
  last_triggered_at timestamptz,
  -- null or 0: once until back to normal; 1: each evaluation; N: at most every N seconds
  rearm integer check (rearm is null or rearm >= 0),
  -- alerts with parameter values run their own query on this interval; null: evaluated on the query's own results
  check_interval integer check (check_interval is null or check_interval >= 60),
  check_next_at timestamptz,
  -- the execution the last own run of this alert is waiting for: its stored result is evaluated for this alert only
  check_execution_id uuid,
  -- the last result evaluated for this alert, and when (whether or not anything changed)
  checked_result_id bigint,
  checked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index alerts_query on alerts (query_id);
create index alerts_org_created on alerts (org_id, created_at desc, id desc);
create index alerts_check_execution on alerts (check_execution_id) where check_execution_id is not null;

-- Who is told: a destination of the organization, or (destination_id null) the subscribing user's own e-mail.
create table alert_subscriptions (
  id bigint generated always as identity primary key,
  alert_id bigint not null references alerts on delete cascade,
  user_id bigint not null references users on delete cascade,
  destination_id bigint references destinations on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- a destination once per alert, and one e-mail subscription per user per alert (NULLs would not collide in one index)
create unique index alert_subscriptions_destination on alert_subscriptions (alert_id, destination_id) where destination_id is not null;
create unique index alert_subscriptions_email on alert_subscriptions (alert_id, user_id) where destination_id is null;
create index alert_subscriptions_destination_id on alert_subscriptions (destination_id) where destination_id is not null;

-- Every state change (and each re-notification or evaluation asked for by hand that notified), with the value seen.
-- `notification` is the message built once at evaluation time: every delivery of it sends exactly that.
create table alert_state_changes (
  id bigint generated always as identity primary key,
  alert_id bigint not null references alerts on delete cascade,
  old_state text not null,
  new_state text not null,
  value jsonb,
  -- no foreign key: results are cleaned up after their retention, the history stays
  result_id bigint,
  -- 'evaluation' (a stored result), 'manual' (POST api/alerts/{id}/eval)
  reason text not null default 'evaluation',
  -- why nobody was told, when nobody was: 'muted', 'unknown_to_ok'; null when subscribers were notified
  skipped text,
  notification jsonb,
  created_at timestamptz not null default now()
);
create index alert_state_changes_alert on alert_state_changes (alert_id, created_at desc, id desc);

-- One notification to one subscription: its own job, its attempts and its end (decision 0022).
create table alert_deliveries (
  id bigint generated always as identity primary key,
  alert_id bigint not null references alerts on delete cascade,
  state_change_id bigint not null references alert_state_changes on delete cascade,
  subscription_id bigint references alert_subscriptions on delete set null,
  destination_id bigint references destinations on delete set null,
  -- the e-mail subscriber (destination_id null), or who added the destination
  user_id bigint references users on delete set null,
  -- what it goes to, as the log shows it even after the destination or subscription is gone
  target jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts integer not null default 0,
  -- one entry per attempt: {attempt, at, outcome, status, message}
  attempt_log jsonb not null default '[]',
  next_attempt_at timestamptz not null default now(),
  -- the worker and job sending it now (status 'sending'): nobody else sends it while that worker lives
  claimed_by text,
  claimed_job bigint,
  claimed_at timestamptz,
  last_error text,
  answer jsonb,
  template_error text,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (state_change_id, subscription_id)
);
create index alert_deliveries_alert on alert_deliveries (alert_id, created_at desc, id desc);
create index alert_deliveries_open on alert_deliveries (next_attempt_at) where status in ('pending', 'sending');
