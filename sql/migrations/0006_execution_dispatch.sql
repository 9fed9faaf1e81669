-- Per-source concurrency as a gate on executions (decision 0011): an execution gets its graphile job only when its
-- source has a free slot ("dispatched"); the others wait here, and each finishing execution lets the next one in.
-- graphile's named queues would do the gating too, but measured 4x slower per job.
alter table executions add column dispatched boolean not null default false;
create index executions_waiting on executions (data_source_id, created_at) where status = 1 and not dispatched;
create index executions_dispatched on executions (data_source_id) where status in (1, 2) and dispatched;

-- How many executions of the source may run at once: its query_concurrency option, 1–32, default 4.
create function sightline_source_concurrency(p_data_source_id bigint) returns int
language sql stable as $$
  select least(32, greatest(1, coalesce(
    case when options->>'query_concurrency' ~ '^\s*[0-9]+(\.[0-9]*)?\s*$' then trunc((options->>'query_concurrency')::numeric)::int end, 4)))
    from data_sources where id = p_data_source_id
$$;

-- Gives waiting executions of a source their jobs, oldest first, while it has free slots; returns how many.
-- The advisory lock makes racing callers take turns, and each statement below sees what they committed.
create function sightline_dispatch_executions(p_data_source_id bigint) returns int
language plpgsql volatile as $$
declare
  free int;
  admitted int := 0;
  waiting record;
begin
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

-- Adds an execution and lets it in if its source has room, in one call (one round trip for the run request); returns
-- nothing when an identical execution is already in flight (the caller then joins that one).
create function sightline_submit_execution(
  p_id uuid, p_org_id bigint, p_data_source_id bigint, p_query_id bigint, p_user_id bigint,
  p_query_hash text, p_query_text text, p_scheduled boolean
) returns setof executions
language plpgsql volatile as $$
declare
  created executions;
begin
  insert into executions (id, org_id, data_source_id, query_id, user_id, query_hash, query_text, scheduled, queue)
  values (p_id, p_org_id, p_data_source_id, p_query_id, p_user_id, p_query_hash, p_query_text, p_scheduled,
          'ds:' || p_data_source_id)
  on conflict do nothing
  returning * into created;
  if created.id is null then
    return;
  end if;
  perform sightline_dispatch_executions(p_data_source_id);
  return query select * from executions where id = p_id;
end
$$;
