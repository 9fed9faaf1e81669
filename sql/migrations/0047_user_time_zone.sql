-- A person's own time zone (an IANA name such as Europe/Paris, checked by the API): offered by the Subscribe dialog
-- beside the organization's `time_zone` setting. Null: they named none, and the organization's clock is used.
alter table users add column time_zone text check (time_zone is null or char_length(time_zone) between 1 and 100);
