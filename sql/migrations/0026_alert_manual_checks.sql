-- "Evaluate now" on an alert with parameter values of its own runs its query: the check of that run's result then
-- tells subscribers as an evaluation asked for by hand does (even without a change), and clears the flag.
alter table alerts add column check_manual boolean not null default false;
-- alert_state_changes.reason may now also be 'subscribed': a new subscriber told once that the alert is triggered.
comment on column alert_state_changes.reason is 'evaluation (a stored result), manual (evaluate now), subscribed (a new subscriber told the triggered state)';
