import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import type { ParameterValue } from '../src/shared/parameters/index.ts'
import { queryTexts } from '../src/shared/query-texts.ts'
import { toast } from './lib/bus.ts'
import { ExecutionStatus } from './lib/editor/ExecutionStatus.tsx'
import { useShownResult } from './lib/editor/HiddenResult.tsx'
import { isRunning } from './lib/editor/use-execution.ts'
import { initialValues, writeAddressValues } from './lib/parameters/address.ts'
import { ParameterInputs } from './lib/parameters/ParameterInputs.tsx'
import { ChartView } from './lib/query-page/ChartView.tsx'
import { ChartViewSlot } from './lib/query-page/chart-view-slot.ts'
import { Header } from './lib/query-page/Header.tsx'
import { ScheduleControl } from './lib/query-page/ScheduleControl.tsx'
import type { QueryPageProps } from './lib/query-page/types.ts'
import { useQueryRun, useQuerySave } from './lib/query-page/use-query-page.ts'
import { Visualizations } from './lib/query-page/Visualizations.tsx'
import { ui } from './lib/ui.ts'

const SaveConflictDialog = lazy(() => import('./lib/editor/SaveConflictDialog.tsx').then((m) => ({ default: m.SaveConflictDialog })))
const t = queryTexts.queryPage

/** spec 2 §4: a `maxAge` in the address is honoured; otherwise any stored result will do (-1). */
function maxAgeOfAddress(): number | null {
  const raw = new URLSearchParams(window.location.search).get('maxAge')
  return raw !== null && /^-?\d+$/.test(raw) ? Number(raw) : null
}

/**
 * The read-only query page (/queries/{id}, spec 2 §2): header, schedule and Refresh Now, parameters (their applied
 * values kept in the address), the execution banner and the visualization tabs; Alt+F puts the results full screen.
 */
function QueryPage(props: QueryPageProps): JSX.Element {
  const { query, save, conflict, dismissConflict, adoptVersion } = useQuerySave(props.query)
  const named = useRef(query.name)
  named.current = query.name
  const { state, run, machine } = useQueryRun(props.query.id, () => named.current)
  const definitions = props.query.options.parameters
  // the server has no address: its HTML (and so the first render here) shows the saved values
  const [values, setValues] = useState<Record<string, ParameterValue>>(() => initialValues(definitions, ''))
  const [fullscreen, setFullscreen] = useState(false)
  const takePending = useRef<(() => Record<string, ParameterValue> | null) | null>(null)
  const shown = useShownResult(state)
  const { permissions } = props

  useLayoutEffect(() => setValues(initialValues(definitions)), [])
  useEffect(() => {
    // spec 2 §4: results load on opening only if the query has a result already or needs parameters
    const latest = props.query.latest_query_data_id
    if (!latest && definitions.length === 0) return
    const maxAge = maxAgeOfAddress()
    if (latest && (!permissions.canExecute || (definitions.length === 0 && maxAge === null))) void machine.open(latest)
    else if (permissions.canExecute) void run(initialValues(definitions), maxAge ?? -1, { initial: true })
  }, [])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // e.code: Alt+F types 'ƒ' on a Mac keyboard
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyF') {
        e.preventDefault()
        setFullscreen((f) => !f)
      } else if (e.key === 'Escape' && !e.defaultPrevented) setFullscreen(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  function apply(next: Record<string, ParameterValue>) {
    setValues(next)
    writeAddressValues(definitions, next)
    if (permissions.canExecute) void run(next, 0)
  }

  /** Refresh Now runs with what the inputs show: edits waiting for Apply are applied first. */
  function refresh() {
    const pending = takePending.current?.()
    if (pending) apply(pending)
    else void run(values, 0)
  }

  const running = isRunning(state)
  const canSchedule = permissions.canSchedule && !query.is_archived
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4" data-query-page data-query-id={query.id}>
      <Header query={query} permissions={permissions} autoPublish={props.autoPublishNamedQueries} save={save} onVersion={adoptVersion} />
      {query.description && <p className="max-w-3xl text-sm whitespace-pre-wrap text-slate-600 dark:text-slate-300">{query.description}</p>}
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <ScheduleControl schedule={query.schedule} canSchedule={canSchedule} intervals={props.refreshIntervals} save={(next) => save({ schedule: next })} />
        <div className="ml-auto flex items-center gap-2">
          <button type="button" className={ui.iconButton} onClick={() => setFullscreen((f) => !f)} aria-pressed={fullscreen} title={t.fullscreen} aria-label={t.fullscreen} aria-keyshortcuts="Alt+F">
            <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" /></svg>
          </button>
          {permissions.canExecute && (
            <button type="button" className={ui.primaryButton} disabled={running} aria-busy={running || undefined} onClick={refresh}>
              <svg viewBox="0 0 24 24" className={`h-4 w-4 ${running ? 'animate-spin' : ''}`} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" /></svg>
              {t.refreshNow}
            </button>
          )}
        </div>
      </div>
      <ParameterInputs definitions={definitions} values={values} onApply={apply} queryId={query.id} disabled={!permissions.canExecute} takePending={takePending} formats={props.formats} />
      <ChartViewSlot value={ChartView}>
        <div data-results-area data-fullscreen={fullscreen || undefined}
          className={fullscreen ? 'fixed inset-0 z-30 flex flex-col bg-white p-4 dark:bg-slate-950' : 'flex h-[34rem] min-h-0 flex-col'}>
          <Visualizations queryId={query.id} visualizations={props.visualizations} prerendered={props.prerendered} result={shown.result}
            onShowHiddenResult={shown.hidden ? shown.reveal : undefined}
            pendingResultId={!state.result && state.phase !== 'failed' ? query.latest_query_data_id : null}
            isSafe={query.is_safe} canEdit={permissions.canEdit} mayEmbed={permissions.holdsApiKey} formats={props.formats}
            status={<ExecutionStatus state={state} onCancel={() => machine.cancel().catch((e: Error) => toast(e.message, 'error'))} />} />
        </div>
      </ChartViewSlot>
      <Suspense fallback={null}>
        {conflict && <SaveConflictDialog canOverwrite={permissions.canEdit} onClose={dismissConflict} onOverwrite={async () => void (await save(conflict, { overwrite: true }))} />}
      </Suspense>
    </div>
  )
}

export default island('QueryPage', QueryPage)
