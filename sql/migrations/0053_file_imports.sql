-- Imports of files (a git export applied through POST api/imports with `files`) are runs too: the admin page lists
-- them beside the imports from an instance, with their report. They have no instance address and never a key.
alter table imports add column kind text not null default 'instance' check (kind in ('instance', 'files'));
alter table imports alter column from_url drop not null;
alter table imports add constraint imports_instance_address check (kind = 'files' or from_url is not null);
