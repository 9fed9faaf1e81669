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
