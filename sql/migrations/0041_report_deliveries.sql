-- One row per send of a report (scheduled or asked for), holding the widgets drawn once for it, and one delivery row
-- per recipient, sent by its own job with attempts, retries and a log, as alert deliveries are (decision 0022).
create table report_sends (
  id bigint generated always as identity primary key,
  subscription_id bigint not null references report_subscriptions on delete cascade,
  -- the schedule's time this send serves (null: sent by hand); a due time is sent once
  due_at timestamptz,
  late boolean not null default false,
  -- a preview sent by hand to its caller alone
  preview_user_id bigint references users on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'drawing', 'drawn', 'skipped', 'failed')),
  claimed_job bigint,
  error text,
  drawing jsonb,
  -- the owner has been told that every recipient failed
  owner_told boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (subscription_id, due_at)
);

create table report_deliveries (
  id bigint generated always as identity primary key,
  send_id bigint not null references report_sends on delete cascade,
  subscription_id bigint not null references report_subscriptions on delete cascade,
  user_id bigint references users on delete set null,
  destination_id bigint references destinations on delete set null,
  -- what it goes to, as the log shows it after the user or destination is gone
  target jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'refused')),
  attempts integer not null default 0,
  attempt_log jsonb not null default '[]',
  next_attempt_at timestamptz not null default now(),
  claimed_by text,
  claimed_job bigint,
  claimed_at timestamptz,
  last_error text,
  answer jsonb,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index report_deliveries_send on report_deliveries (send_id);
create index report_deliveries_subscription on report_deliveries (subscription_id, created_at desc);
create index report_deliveries_budget on report_deliveries (subscription_id, destination_id, created_at) where destination_id is not null;

-- Pictures of a send, served by signed address to chat services for 7 days.
create table report_images (
  id bigint generated always as identity primary key,
  send_id bigint not null references report_sends on delete cascade,
  widget_id bigint not null,
  png bytea not null,
  expires_at timestamptz not null,
  unique (send_id, widget_id)
);
create index report_images_expires on report_images (expires_at);
