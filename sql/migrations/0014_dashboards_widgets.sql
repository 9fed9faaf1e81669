-- Dashboards and the widgets on them (reference §7.1, §7.2). Layout and parameter mappings live in the options
-- documents, which belong to the browser; the server checks their size and a widget's position bounds only.
create table dashboards (
  id bigint generated always as identity primary key,
  org_id bigint not null references organizations on delete cascade,
  user_id bigint not null references users,
  name text not null check (length(trim(name)) > 0 and length(name) <= 255),
  -- the legacy address (/dashboard/<slug>): unique per organization, fixed at creation
  slug text not null,
  -- kept for clients of the established tool, which send it back; always [] for dashboards made here
  layout jsonb not null default '[]',
  dashboard_filters_enabled boolean not null default false,
  options jsonb not null default '{}',
  tags text[] not null default '{}',
  is_draft boolean not null default true,
  is_archived boolean not null default false,
  -- each update increments it; a save naming an older version is refused (409)
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (org_id, slug)
);
create index dashboards_org_created on dashboards (org_id, created_at desc, id desc);
create index dashboards_user on dashboards (user_id);
create index dashboards_tags on dashboards using gin (tags);

create table widgets (
  id bigint generated always as identity primary key,
  dashboard_id bigint not null references dashboards on delete cascade,
  -- null for a text box; a deleted visualization takes its widgets with it
  visualization_id bigint references visualizations on delete cascade,
  text text not null default '',
  -- always 1: the established tool's clients send it, the position in options decides the size
  width integer not null default 1,
  options jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index widgets_dashboard on widgets (dashboard_id, id);
create index widgets_visualization on widgets (visualization_id) where visualization_id is not null;
