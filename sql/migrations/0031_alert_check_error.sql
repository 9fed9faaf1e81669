-- Why the last check of an alert could not evaluate it, null when it could: its owner may not read every data source
-- the result read (a Query Results result), so the alert reads nothing of it rather than the rows of someone else's run.
alter table alerts add column check_error text;
