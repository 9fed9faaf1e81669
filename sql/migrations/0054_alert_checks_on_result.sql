-- Alerts check each result they watch (decision 0022). The checks a stored result calls for are queued by the
-- statement that ends its execution, in its transaction: no round trip after each run (alerts or none), and no check
-- lost to a worker that dies between storing a result and queueing its checks. Two kinds, as before:
--   - one `check_alerts` job per query that now shows the result and has alerts watching its own results (keyed per
--     query: a newer result replaces a check not yet started);
--   - one for the alerts whose own run (parameter values, own interval) is this execution.
create function sightline_queue_alert_checks() returns trigger language plpgsql as $$
begin
  perform graphile_worker.add_job('check_alerts',
            json_build_object('result_id', new.query_result_id, 'query_id', s.query_id, 'execution_id', new.id::text),
            job_key => 'alert-check:' || s.query_id, max_attempts => 3)
     from (select distinct a.query_id
             from queries q join alerts a on a.query_id = q.id and a.check_interval is null
            where q.data_source_id = new.data_source_id and q.query_hash = new.query_hash and not q.is_archived) s;
  perform graphile_worker.add_job('check_alerts',
            json_build_object('result_id', new.query_result_id, 'alert_ids', array_agg(a.id), 'execution_id', new.id::text),
            max_attempts => 3)
     from alerts a where a.check_execution_id = new.id having count(*) > 0;
  return null;
end $$;

create trigger executions_queue_alert_checks
  after update of status on executions
  for each row when (new.status = 3 and old.status is distinct from 3 and new.query_result_id is not null)
  execute function sightline_queue_alert_checks();
