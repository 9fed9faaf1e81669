import type { JSX } from 'react'
import type { ListState } from '../../../src/shared/list/address.ts'
import type { WorkerJobJson, JobMeta, QueueJson, WorkerJson } from '../../../src/shared/monitoring.ts'
import { texts } from '../../../src/shared/texts.ts'
import type { DateFormats } from '../../../src/shared/time.ts'
import type { ListView } from '../list/view.ts'
import { dateOrNever } from './list.ts'
import { cell, PagedTable } from './PagedTable.tsx'

/** The RQ Status page's four tables, with the columns spec 3 §2 lists for each. */
const t = texts.monitoring

function startedCount(q: QueueJson): string | number {
  const lost = q.started.filter((job) => job.worker_lost).length
  return lost ? t.withWorkerLost(q.started.length, lost) : q.started.length
}

export function QueuesTable({ list, queues }: { list: ListView<ListState>; queues: QueueJson[] }): JSX.Element {
  return (
    <PagedTable list={list} caption={t.queues} rows={queues}
      columns={[{ label: t.name }, { label: t.started, className: 'w-32' }, { label: t.queued, className: 'w-32' }]}
      row={(q) => (
        <tr key={q.name} data-queue={q.name}>
          <td className={cell}>{q.name}</td><td className={cell}>{startedCount(q)}</td><td className={cell}>{q.queued}</td>
        </tr>
      )} />
  )
}

/** Seconds as hours, minutes and seconds: '1h 2m 3s', '4.2s'. */
function duration(seconds: number): string {
  if (seconds < 60) return `${+seconds.toFixed(1)}s`
  const s = Math.round(seconds)
  const parts = [[Math.floor(s / 3600), 'h'], [Math.floor(s / 60) % 60, 'm'], [s % 60, 's']] as const
  return parts.filter(([n], i) => n > 0 || i === 2).map(([n, u]) => `${n}${u}`).join(' ')
}

export function WorkersTable({ list, workers, formats }: { list: ListView<ListState>; workers: WorkerJson[]; formats: DateFormats }): JSX.Element {
  const columns = [t.state, t.hostname, t.pid, t.name, t.queues, t.currentJob, t.successfulJobs, t.failedJobs, t.birthDate, t.totalWorkingTime]
  return (
    <PagedTable list={list} caption={t.workers} rows={workers} minWidth="min-w-[64rem]" columns={columns.map((label) => ({ label }))}
      row={(w) => (
        <tr key={w.name} data-worker={w.name}>
          <td className={cell}>{w.state}</td><td className={cell}>{w.hostname}</td><td className={cell}>{w.pid}</td>
          <td className={cell}>{w.name}</td><td className={cell}>{w.queues}</td><td className={cell}>{w.current_job ?? ''}</td>
          <td className={cell}>{w.successful_jobs}</td><td className={cell}>{w.failed_jobs}</td>
          <td className={cell}>{dateOrNever(w.birth_date, formats)}</td><td className={cell}>{duration(w.total_working_time)}</td>
        </tr>
      )} />
  )
}

const startTime = (job: WorkerJobJson, formats: DateFormats) =>
  job.worker_lost ? t.workerLost : job.started_at ? dateOrNever(job.started_at, formats) : t.waiting
const metaOf = (job: WorkerJobJson): Partial<JobMeta> => job.meta

export function QueriesTable({ list, jobs, formats }: { list: ListView<ListState>; jobs: WorkerJobJson[]; formats: DateFormats }): JSX.Element {
  const columns = [t.queue, t.queryId, t.orgId, t.dataSourceId, t.userId, t.scheduled, t.startTime, t.enqueueTime]
  return (
    <PagedTable list={list} caption={t.queries} rows={jobs} minWidth="min-w-[52rem]" columns={columns.map((label) => ({ label }))}
      row={(job) => {
        const m = metaOf(job)
        return (
          <tr key={job.id} data-job={job.id}>
            <td className={cell}>{job.origin}</td>
            <td className={cell}>{m.query_id ? <a className="text-indigo-600 hover:underline dark:text-indigo-400" href={`/queries/${m.query_id}`}>{m.query_id}</a> : ''}</td>
            <td className={cell}>{m.org_id ?? ''}</td><td className={cell}>{m.data_source_id ?? ''}</td><td className={cell}>{m.user_id ?? ''}</td>
            <td className={cell}>{m.scheduled ? t.yes : t.no}</td>
            <td className={cell}>{startTime(job, formats)}</td><td className={cell}>{dateOrNever(job.enqueued_at, formats)}</td>
          </tr>
        )
      }} />
  )
}

export function OtherJobsTable({ list, jobs, formats }: { list: ListView<ListState>; jobs: WorkerJobJson[]; formats: DateFormats }): JSX.Element {
  return (
    <PagedTable list={list} caption={t.otherJobs} rows={jobs} minWidth="min-w-[36rem]" columns={[t.queue, t.jobName, t.startTime, t.enqueueTime].map((label) => ({ label }))}
      row={(job) => (
        <tr key={job.id} data-job={job.id}>
          <td className={cell}>{job.origin}</td><td className={cell}>{job.name}</td>
          <td className={cell}>{startTime(job, formats)}</td><td className={cell}>{dateOrNever(job.enqueued_at, formats)}</td>
        </tr>
      )} />
  )
}
