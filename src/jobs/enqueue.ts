import type { Db } from '../db/sql.ts'
import type { TaskPayloads } from './tasks.ts'

/**
 * Queue a graphile-worker job in the caller's transaction, so a row and the job that processes it are committed
 * together or not at all.
 */
export async function enqueue<T extends keyof TaskPayloads>(
  db: Db, task: T, payload: TaskPayloads[T], o: { jobKey?: string; queue?: string; maxAttempts?: number; runAt?: Date } = {},
) {
  await db`select graphile_worker.add_job(
    ${task}::text, ${db.json(payload as never)}::json, queue_name => ${o.queue ?? null}::text,
    run_at => ${o.runAt ?? null}::timestamptz, max_attempts => ${o.maxAttempts ?? 3}::int, job_key => ${o.jobKey ?? null}::text)`
}
