import type { ListState } from '../../../src/shared/list/address.ts'
import type { WorkerJobJson, RqStatusJson } from '../../../src/shared/monitoring.ts'
import { texts } from '../../../src/shared/texts.ts'
import { ADMIN_TABLE, tableSearch } from './list.ts'

/** The RQ Status tabs in their order (spec 3 §2); the address's hash names the open one, queues by default. */
export const RQ_TABS = ['queues', 'workers', 'queries', 'otherJobs'] as const
export type RqTab = (typeof RQ_TABS)[number]

export const RQ_TAB_LABELS: Record<RqTab, string> = {
  queues: texts.monitoring.queues, workers: texts.monitoring.workers, queries: texts.monitoring.queries, otherJobs: texts.monitoring.otherJobs,
}

/** A tab named in the address (its hash, or `?tab=` for a browser without script), else the default. */
export const readTab = (value: string | null | undefined): RqTab =>
  RQ_TABS.find((tab) => tab === value?.replace(/^#/, '')) ?? 'queues'

/**
 * The address of a tab and its table's page: `?tab=` lets a browser without script open it, the hash is what
 * keeps it with script (spec 3 §2).
 */
export const rqAddress = (tab: RqTab, s: ListState) =>
  `/admin/queries/jobs${tableSearch(ADMIN_TABLE, s, tab === 'queues' ? {} : { tab })}#${tab}`

/** The counters and lists the page draws from one rq_status answer. */
export function rqFigures(status: RqStatusJson) {
  const queues = Object.values(status.queues)
  const started = queues.flatMap((q) => q.started)
  // a job runs first, then waits: what runs now is the more urgent to see
  const jobs: WorkerJobJson[] = [...started, ...status.queued_jobs]
  const isQuery = (job: WorkerJobJson) => job.name === 'execute_query'
  return {
    queues,
    startedCount: started.length,
    queuedCount: queues.reduce((sum, q) => sum + q.queued, 0),
    listedQueued: status.queued_jobs.length,
    queryJobs: jobs.filter(isQuery),
    otherJobs: jobs.filter((job) => !isQuery(job)),
  }
}
