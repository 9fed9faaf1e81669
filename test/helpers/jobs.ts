import type { Client } from './app.ts'
import { eventually } from './wait.ts'

export interface PolledJob {
  id: string
  status: number
  error: string
  query_result_id: number | null
}

/**
 * Polls a job until it is done or failed, as the browser does (faster, to keep tests quick). `path` defaults to
 * `/api/jobs/{id}`; public pages poll `/api/queries/{id}/jobs/{jobId}` instead.
 */
export async function settle(client: Client, job: { id: string }, path = `/api/jobs/${job.id}`): Promise<PolledJob> {
  return eventually(async () => (await (await client.get(path)).json()).job as PolledJob, (now) => now.status >= 3, `the end of job ${job.id}`)
}

/** What a run answered in the end: its result (at once, or after polling its job), or the job's error. */
export async function outcomeOf(client: Client, res: Response): Promise<{ result?: any; error?: string }> {
  const body = await res.json()
  if (body.query_result) return { result: body.query_result }
  if (!body.job) throw new Error(`no result and no job: ${JSON.stringify(body)}`)
  const job = body.job.status === 4 ? body.job : await settle(client, body.job)
  if (job.status === 4) return { error: job.error }
  return { result: (await (await client.get(`/api/query_results/${job.query_result_id}`)).json()).query_result }
}
