-- Wrong current passwords on the profile page are counted beside sign-ins, in PostgreSQL, so that every web process
-- sees the same count, and so are password-reset requests. `purpose` keeps them apart: a profile's or a reset page's
-- count never slows a sign-in, nor the other way, whatever e-mail address is typed where.
alter table sign_in_attempts
  add column purpose text not null default 'sign_in' check (purpose in ('sign_in', 'current_password', 'forgot'));

-- Events a browser reported through POST /api/events (views, runs started from a page) are marked, so that they
-- can be limited per user and minute and kept only SIGHTLINE_BROWSER_EVENT_RETENTION_DAYS, while what Sightline
-- records itself (sign-ins, changes, shares) stays. Earlier browser rows: the actions only browsers report, and
-- views carrying properties (the server's own dashboard views carry none).
alter table events add column from_browser boolean not null default false;
update events set from_browser = true
  where action in ('view_source', 'execute') or (action = 'view' and additional_properties <> '{}'::jsonb);

-- a user's browser events of the last minute (the rate limit), and the oldest ones (the retention)
create index events_from_browser_by_user on events (user_id, created_at) where from_browser;
create index events_from_browser_created on events (created_at) where from_browser;
