import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import type { ListState } from '../src/shared/list/address.ts'
import type { RqStatusJson } from '../src/shared/monitoring.ts'
import { texts } from '../src/shared/texts.ts'
import type { DateFormats } from '../src/shared/time.ts'
import { focusRing } from './lib/list/view.ts'
import { ADMIN_TABLE, useClientList } from './lib/monitoring/list.ts'
import { useRefresh } from './lib/monitoring/refresh.ts'
import { LoadError } from './lib/monitoring/PagedTable.tsx'
import { readTab, RQ_TAB_LABELS, RQ_TABS, rqAddress, rqFigures, type RqTab } from './lib/monitoring/rq.ts'
import { OtherJobsTable, QueriesTable, QueuesTable, WorkersTable } from './lib/monitoring/RqTables.tsx'
import { ui } from './lib/ui.ts'

const t = texts.monitoring

function Counter({ label, value }: { label: string; value: number }): JSX.Element {
  return (
    <div className={`${ui.card} px-4 py-3`}>
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-2xl font-semibold text-slate-900 tabular-nums dark:text-slate-100">{value.toLocaleString('en-US')}</dd>
    </div>
  )
}

const tabClass = (current: boolean) =>
  `-mb-px inline-block border-b-2 px-1 pt-1 pb-2.5 text-sm font-medium whitespace-nowrap ${focusRing} ${current
    ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300'
    : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'}`

/**
 * RQ Status (spec 3 §2): the Started and Queued counters, then the Queues, Workers, Queries and Other Jobs tabs.
 * The open tab lives in the address's hash; each tab's table pages in the browser and the whole reads
 * rq_status again every minute.
 */
function RqStatus({ initial, tab: initialTab, list: initialList, formats }: {
  initial: RqStatusJson; tab: RqTab; list: ListState; formats: DateFormats
}): JSX.Element {
  const { data, failed } = useRefresh('/api/admin/queries/rq_status', initial)
  const [tab, setTab] = useState(initialTab)
  const [list, go] = useClientList(ADMIN_TABLE, initialList, (s) => rqAddress(tab, s))
  const f = rqFigures(data)

  // the hash decides once script runs (the server only sees `?tab=`), and again when it changes (back, forward)
  useEffect(() => {
    const follow = () => setTab(readTab(window.location.hash || new URLSearchParams(window.location.search).get('tab')))
    follow()
    window.addEventListener('hashchange', follow)
    return () => window.removeEventListener('hashchange', follow)
  }, [])

  function open(next: RqTab) {
    const s = { ...list.s, page: 1 }
    setTab(next)
    go(s)
    window.history.replaceState(window.history.state, '', rqAddress(next, s))
  }

  return (
    <div className="flex flex-col gap-5">
      <LoadError failed={failed} />
      <dl className="grid grid-cols-2 gap-4 sm:max-w-md">
        <Counter label={t.startedJobs} value={f.startedCount} />
        <Counter label={t.queuedJobs} value={f.queuedCount} />
      </dl>
      <div role="tablist" aria-label={t.tabs} className="flex gap-6 overflow-x-auto border-b border-slate-200 dark:border-slate-800">
        {RQ_TABS.map((key) => (
          <a key={key} role="tab" id={`rq-tab-${key}`} aria-selected={key === tab} aria-controls="rq-panel" className={tabClass(key === tab)}
            href={rqAddress(key, { ...list.s, page: 1 })}
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
              e.preventDefault()
              open(key)
            }}>{RQ_TAB_LABELS[key]}</a>
        ))}
      </div>
      <div role="tabpanel" id="rq-panel" aria-labelledby={`rq-tab-${tab}`} className="flex flex-col gap-3">
        {tab === 'queues' && <QueuesTable list={list} queues={f.queues} />}
        {tab === 'workers' && <WorkersTable list={list} workers={data.workers} formats={formats} />}
        {tab === 'queries' && <QueriesTable list={list} jobs={f.queryJobs} formats={formats} />}
        {tab === 'otherJobs' && <OtherJobsTable list={list} jobs={f.otherJobs} formats={formats} />}
        {(tab === 'queries' || tab === 'otherJobs') && f.listedQueued < f.queuedCount && (
          <p className="text-sm text-slate-500 dark:text-slate-400">{t.listedQueued(f.listedQueued, f.queuedCount)}</p>
        )}
      </div>
    </div>
  )
}

export default island('RqStatus', RqStatus)
