-- A run request's insert no longer dispatches inside its own transaction: the source's advisory lock was then held
-- until that transaction committed, so 1,000 requests at once took turns for seconds. The request now commits its
-- execution first and dispatches after (decision 0011), and dispatching looks without the lock first: a source with
-- no free slot is left alone. That look is safe once the new execution is committed, because every execution that
-- ends later claims the oldest waiting one (claimNextWaiting) with a snapshot that includes it.
-- Dispatch commits do not wait for the disk flush (decision 0012): a lost one is redone by the heartbeat.
create or replace function sightline_dispatch_executions(p_data_source_id bigint) returns int
language plpgsql volatile as $$
declare
  free int;
  admitted int := 0;
  waiting record;
begin
  perform set_config('synchronous_commit', 'off', true);
  select coalesce(sightline_source_concurrency(p_data_source_id), 0) - count(*) into free
    from executions where data_source_id = p_data_source_id and status in (1, 2) and dispatched;
  if free <= 0 then
    return 0;
  end if;
  perform pg_advisory_xact_lock(hashtext('sightline_dispatch_executions'), p_data_source_id::int);
  select coalesce(sightline_source_concurrency(p_data_source_id), 0) - count(*) into free
    from executions where data_source_id = p_data_source_id and status in (1, 2) and dispatched;
  if free <= 0 then
    return 0;
  end if;
  for waiting in
    select id from executions
     where data_source_id = p_data_source_id and status = 1 and not dispatched
     order by created_at
     limit free
     for update skip locked
  loop
    update executions set dispatched = true where id = waiting.id;
    perform graphile_worker.add_job('execute_query', json_build_object('execution_id', waiting.id), max_attempts => 5);
    admitted := admitted + 1;
  end loop;
  return admitted;
end
$$;

-- Adds an execution; returns nothing when an identical one is already in flight (the caller then joins that one).
-- The caller dispatches once this has committed.
create or replace function sightline_submit_execution(
  p_id uuid, p_org_id bigint, p_data_source_id bigint, p_query_id bigint, p_user_id bigint,
  p_query_hash text, p_query_text text, p_scheduled boolean
) returns setof executions
language plpgsql volatile as $$
begin
  return query
    insert into executions (id, org_id, data_source_id, query_id, user_id, query_hash, query_text, scheduled, queue)
    values (p_id, p_org_id, p_data_source_id, p_query_id, p_user_id, p_query_hash, p_query_text, p_scheduled,
            'ds:' || p_data_source_id)
    on conflict do nothing
    returning *;
end
$$;
