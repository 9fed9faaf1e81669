import type { Sql } from '../db/index.ts'
import { findJobOrgId, setJobStatus } from '../jobs/index.ts'
import { JobStatus } from '../shared/job-status.ts'
import { log } from '../log.ts'
import { getRunner } from '../runners/index.ts'
import { openedConfig } from './local-files.ts'
import { runnerConfig } from './service.ts'
import { findById, saveSchema } from './store.ts'

const SCHEMA_TIMEOUT_MS = 120_000

/** Runs in the worker: fetch the schema, sort it for the browser, store it as JSON text, finish the job. */
export async function refreshSchema(sql: Sql, secretKey: string, p: { job_id: string; data_source_id: number }) {
  await setJobStatus(sql, p.job_id, JobStatus.Started)
  try {
    const orgId = await findJobOrgId(sql, p.job_id)
    const ds = orgId === undefined ? undefined : await findById(sql, orgId, p.data_source_id)
    const runner = ds && getRunner(ds.type)
    if (!ds || !runner) throw new Error('The data source no longer exists.')
    const signal = AbortSignal.timeout(SCHEMA_TIMEOUT_MS)
    // a Files source fetches its URLs anew: the schema refresh is when their files are refreshed
    const tables = await runner.schema(await openedConfig({ sql, secretKey }, ds, { refreshUrls: true, signal }), signal)
    tables.sort((a, b) => a.name.localeCompare(b.name))
    await saveSchema(sql, ds.id, JSON.stringify(tables), tables.length)
    await setJobStatus(sql, p.job_id, JobStatus.Success)
  } catch (error) {
    log.warn('schema refresh failed', { dataSourceId: p.data_source_id, error: String(error) })
    await setJobStatus(sql, p.job_id, JobStatus.Failure, (error as Error).message || 'Schema refresh failed.')
  }
}
