import type { JSX, ReactNode } from 'react'
import { island } from '../src/shared/island.tsx'
import type { SystemStatusJson } from '../src/shared/monitoring.ts'
import { texts } from '../src/shared/texts.ts'
import type { DateFormats } from '../src/shared/time.ts'
import { byteSize, dateOrNever } from './lib/monitoring/list.ts'
import { LoadError } from './lib/monitoring/PagedTable.tsx'
import { useRefresh } from './lib/monitoring/refresh.ts'
import { ui } from './lib/ui.ts'

const t = texts.monitoring

/** One block of the page: a heading and its figures as a list of terms and values. */
function Block({ id, title, rows }: { id: string; title: string; rows: [label: string, value: ReactNode][] }): JSX.Element {
  return (
    <section aria-labelledby={id} className={`${ui.card} flex flex-col`}>
      <h2 id={id} className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900 dark:border-slate-800 dark:text-slate-100">{title}</h2>
      {rows.length === 0 ? <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">{t.none}</p> : (
        <dl className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-4 px-4 py-2.5">
              <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
              <dd className="text-right font-medium break-all text-slate-900 tabular-nums dark:text-slate-100">{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}

const count = (n: number) => n.toLocaleString('en-US')

/**
 * System Status (spec 3 §2): General, Manager, Queues and database metrics, drawn from /status.json on the server
 * and read again every minute.
 */
function SystemStatus({ initial, formats }: { initial: SystemStatusJson; formats: DateFormats }): JSX.Element {
  const { data: s, failed } = useRefresh('/status.json', initial)
  return (
    <div className="flex flex-col gap-4">
      <LoadError failed={failed} />
      <div className="grid gap-4 md:grid-cols-2">
        <Block id="status-general" title={t.general} rows={[
          [t.version, s.version],
          [t.queriesCount, count(s.queries_count)],
          [t.queryResultsCount, count(s.query_results_count)],
          [t.unusedQueryResultsCount, count(s.unused_query_results_count)],
          [t.dashboardsCount, count(s.dashboards_count)],
          [t.widgetsCount, count(s.widgets_count)],
          [t.workersCount, count(s.workers.length)],
        ]} />
        <Block id="status-manager" title={t.manager} rows={[
          [t.lastRefresh, dateOrNever(s.manager.last_refresh_at, formats)],
          [t.started, dateOrNever(s.manager.started_at, formats)],
          [t.outdatedCount, count(s.manager.outdated_queries_count)],
        ]} />
        <Block id="status-queues" title={t.queues}
          rows={Object.entries(s.manager.queues).map(([name, q]) => [name, count(q.size)])} />
        <Block id="status-database" title={t.databaseMetrics}
          rows={s.database_metrics.metrics.map(([name, bytes]) => [name, byteSize(bytes)])} />
      </div>
    </div>
  )
}

export default island('SystemStatus', SystemStatus)
