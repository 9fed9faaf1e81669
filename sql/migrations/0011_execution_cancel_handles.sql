-- What another process needs to stop an execution's statement in its engine once the worker running it has died
-- (decision 0011): PostgreSQL's backend pid and start time, MySQL's connection id, ClickHouse's query id prefix.
-- The worker writes it shortly after the statement starts; a new attempt clears it. Recovery stops the orphaned
-- statement through it before the execution is run again, so a query never runs twice at once.
alter table executions add column cancel_handle jsonb;
