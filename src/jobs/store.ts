import type { Db } from '../db/sql.ts'

export type JobStatus = 1 | 2 | 3 | 4
export const WAITING = 1
export const PROCESSING = 2
export const DONE = 3
export const FAILED = 4

export interface JobRow {
  id: string
  org_id: number
  kind: string
  status: JobStatus
  error: string | null
  data_source_id: number | null
  user_id: number | null
  query_result_id: number | null
  created_at: Date
  updated_at: Date
}

export async function insertJob(db: Db, j: { orgId: number; kind: string; dataSourceId?: number; userId?: number }): Promise<JobRow> {
  const [row] = await db<JobRow[]>`
    insert into jobs (org_id, kind, data_source_id, user_id)
    values (${j.orgId}, ${j.kind}, ${j.dataSourceId ?? null}, ${j.userId ?? null}) returning *`
  return row
}

/** An unfinished job of this kind for this source, so a second request joins it instead of starting another. */
export async function findUnfinished(db: Db, kind: string, dataSourceId: number): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`
    select * from jobs where kind = ${kind} and data_source_id = ${dataSourceId} and status in (1, 2)
      and updated_at > now() - interval '10 minutes' -- older ones belong to a worker that died
    order by created_at desc limit 1`
  return row
}

export async function findJob(db: Db, orgId: number, id: string): Promise<JobRow | undefined> {
  const [row] = await db<JobRow[]>`select * from jobs where id = ${id} and org_id = ${orgId}`
  return row
}

export async function setJobStatus(db: Db, id: string, status: JobStatus, error: string | null = null) {
  await db`update jobs set status = ${status}, error = ${error}, updated_at = now() where id = ${id}`
}
