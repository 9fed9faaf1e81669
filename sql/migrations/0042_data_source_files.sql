-- Files uploaded to a Files source, each a table of its own. The bytes are kept here, not on a web server's disk,
-- so every web and worker process reads the same file wherever it runs, and a backup of the database holds them.
create table data_source_files (
  id bigserial primary key,
  data_source_id bigint not null references data_sources (id) on delete cascade,
  name text not null,
  table_name text not null,
  format text not null,
  content bytea not null,
  sha256 text not null,
  size_bytes bigint not null,
  created_at timestamptz not null default now(),
  unique (data_source_id, table_name)
);
