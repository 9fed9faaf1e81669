-- A run request queues its execution and records its audit event in one statement, so in one round trip with the
-- dispatch that follows it on the same connection (src/executions/store.ts, queueExecution). The dispatch stays a
-- statement of its own, after this one has committed, for the reason sightline_dispatch_executions gives (0008).
-- The statement returns the new execution, or the identical one in flight that the request joins instead.
create function sightline_queue_execution(
  p_id uuid, p_org_id bigint, p_data_source_id bigint, p_query_id bigint, p_user_id bigint,
  p_query_hash text, p_query_text text, p_scheduled boolean, p_action text, p_properties jsonb
) returns setof executions
language plpgsql volatile as $$
declare
  created executions;
begin
  -- redoable on a crash, and the request waits on nothing else: the commit does not wait for the disk (decision 0012)
  perform set_config('synchronous_commit', 'off', true);
  if p_action is not null then
    insert into events (org_id, user_id, action, object_type, object_id, additional_properties)
    values (p_org_id, p_user_id, p_action, 'data_source', p_data_source_id::text, coalesce(p_properties, '{}'));
  end if;
  insert into executions (id, org_id, data_source_id, query_id, user_id, query_hash, query_text, scheduled, queue)
  values (p_id, p_org_id, p_data_source_id, p_query_id, p_user_id, p_query_hash, p_query_text, p_scheduled,
          'ds:' || p_data_source_id)
  on conflict do nothing
  returning * into created;
  if created.id is not null then
    return next created;
    return;
  end if;
  return query
    select * from executions
     where (data_source_id = p_data_source_id and query_hash = p_query_hash and status in (1, 2))
        or (p_scheduled and query_id = p_query_id and scheduled and status in (1, 2))
     limit 1;
end
$$;

-- Idle execution slots of the running workers, each listening on sightline_execution_ready. A dispatch hands an
-- execution straight to one (taking its row and naming the worker on the execution) instead of queueing a job that
-- a worker would fetch: the job queue keeps what waits. A slot comes back once its run is over; a worker that stops
-- takes its slots away, a dead one's are removed with its heartbeat, and an execution handed to a worker that never
-- took it is dispatched again by the heartbeat.
create table execution_slots (
  worker_id text not null,
  slot int not null,
  primary key (worker_id, slot)
);

create or replace function sightline_dispatch_executions(p_data_source_id bigint) returns int
language plpgsql volatile as $$
declare
  free int;
  admitted int := 0;
  waiting record;
  taken record;
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
    delete from execution_slots
     where ctid = (select s.ctid from execution_slots s join worker_heartbeats h on h.worker_id = s.worker_id
                    limit 1 for update of s skip locked)
    returning worker_id, slot into taken;
    if taken.worker_id is not null then
      update executions set dispatched = true, worker_id = taken.worker_id, updated_at = now() where id = waiting.id;
      perform pg_notify('sightline_execution_ready', taken.worker_id || ' ' || taken.slot || ' ' || waiting.id);
    else
      update executions set dispatched = true where id = waiting.id;
      perform graphile_worker.add_job('execute_query', json_build_object('execution_id', waiting.id), max_attempts => 5);
    end if;
    admitted := admitted + 1;
  end loop;
  return admitted;
end
$$;
