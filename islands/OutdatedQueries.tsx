import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import type { ListState } from '../src/shared/list/address.ts'
import { outdatedRow, type OutdatedJson } from '../src/shared/monitoring.ts'
import { texts } from '../src/shared/texts.ts'
import { formatDateTime, type DateFormats } from '../src/shared/time.ts'
import { focusRing } from './lib/list/view.ts'
import { useClientList } from './lib/monitoring/list.ts'
import { OutdatedTable } from './lib/monitoring/OutdatedTable.tsx'
import { OUTDATED_LIST, outdatedAddress } from './lib/monitoring/outdated.ts'
import { LoadError } from './lib/monitoring/PagedTable.tsx'
import { useRefresh } from './lib/monitoring/refresh.ts'

const t = texts.monitoring

/** The Auto update switch: on by default; off, the list stays as it is until switched on again (spec 3 §4). */
function AutoUpdate({ on, enabled, onChange }: { on: boolean; enabled: boolean; onChange: (on: boolean) => void }): JSX.Element {
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
      <button type="button" role="switch" aria-checked={on} disabled={!enabled} onClick={() => onChange(!on)}
        className={`relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${focusRing} ${on ? 'bg-indigo-600' : 'bg-slate-300 dark:bg-slate-600'}`}>
        <span aria-hidden="true" className={`inline-block h-4 w-4 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-4.5' : 'translate-x-0.5'}`} />
      </button>
      {t.autoUpdate}
    </label>
  )
}

/**
 * Outdated Queries (spec 3 §2): the whole list from the API at once, sorted and paged here, read again every
 * minute while Auto update is on. The switch works once script runs; without it the page is a plain snapshot.
 */
function OutdatedQueries({ initial, list: initialList, formats }: { initial: OutdatedJson; list: ListState; formats: DateFormats }): JSX.Element {
  const [auto, setAuto] = useState(true)
  const [hydrated, setHydrated] = useState(false)
  const { data, failed } = useRefresh('/api/admin/queries/outdated', initial, auto)
  const [list] = useClientList(OUTDATED_LIST, initialList, outdatedAddress)
  // the switch is enabled only once it can do something
  useEffect(() => setHydrated(true), [])
  return (
    <div className="flex flex-col gap-4">
      <LoadError failed={failed} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <AutoUpdate on={auto} enabled={hydrated} onChange={setAuto} />
        <p className="text-sm text-slate-500 dark:text-slate-400">
          {t.lastUpdated}: <time dateTime={data.updated_at}>{formatDateTime(data.updated_at, formats)}</time>
        </p>
      </div>
      <OutdatedTable list={list} queries={data.queries.map(outdatedRow)} formats={formats} />
    </div>
  )
}

export default island('OutdatedQueries', OutdatedQueries)
