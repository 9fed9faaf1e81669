import { useCallback, useEffect, useRef, useState } from 'react'
import { api, pageShareKey } from '../api.ts'
import type { QueryResult } from '../editor/types.ts'
import { ExecutionMachine, initialExecution, isRunning, type ExecutionState } from '../editor/use-execution.ts'
import { fetchDrawing, type WidgetDrawing } from './server-drawing.ts'
import { dashboardRuns } from './slots.ts'

/** The stricter of two ages: 0 runs now, -1 takes any stored result, any other the youngest asked for. */
const stricter = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : Math.min(a, b))

/**
 * A result as a widget holds it: its id and time, and the server's drawing of it. A widget never loads the rows: the
 * execution machine's result load is answered by the drawing call, so `data` stays empty.
 */
type DrawnResult = QueryResult & { drawing: WidgetDrawing }

/** What a widget shows of its runs: the server's latest drawing for it, and how the last run went. */
export interface WidgetRun {
  /** The server's drawing of the latest run (or filter choice); null until the widget ran or redrew. */
  drawing: WidgetDrawing | null
  /** The result the card shows: the last run's, else the one the server drew. */
  resultId: number | null
  retrievedAt: string | null
  /** Why the last run failed; null when it did not. */
  error: string | null
  /** Waiting for a slot, running, or fetching the drawing. */
  busy: boolean
}

const drawnResult = (id: number, d: WidgetDrawing): DrawnResult =>
  ({ id: d.query_result?.id ?? id, retrieved_at: d.query_result?.retrieved_at ?? '', runtime: 0, data: { columns: [], rows: [] }, drawing: d })

/**
 * A widget's runs of its saved query: POST api/queries/{id}/results with the refresh's max_age, then the query page's
 * polling (the editor's execution machine, without its toasts: a dashboard tells each widget's outcome in its card),
 * then the server's drawing of the result for the values run (`GET api/widgets/{id}/drawing`) instead of its rows, so
 * the chart code is never needed. Every run waits for one of the dashboard's slots (`dashboardRuns`), held until its
 * result is stored (the drawing is fetched after, so the next widget's execution need not wait for it). A refresh asked
 * while one is on its way is not queued again: it would join the same execution on the server anyway; one still
 * waiting for a slot takes the stricter age. `filters()` gives the result filters' choice to draw with.
 */
export function useWidgetRun(widgetId: number, queryId: number, initial: { resultId: number | null; retrievedAt: string | null }, filters: () => Record<string, unknown[]>) {
  const [state, setState] = useState<ExecutionState>(() => initialExecution(null))
  const [redrawn, setRedrawn] = useState<WidgetDrawing | null>(null)
  const [queued, setQueued] = useState(false)
  const maxAge = useRef(0)
  const pending = useRef<'queued' | 'running' | null>(null)
  // the parameter values to run with next, those of the run on its way, and the age of a run asked for meanwhile
  const wanted = useRef<Record<string, unknown>>({})
  const sent = useRef('{}')
  const again = useRef<number | null>(null)
  const filtersRef = useRef(filters)
  filtersRef.current = filters
  // gives the dashboard's slot back: a run holds one until its result is stored, not while its drawing is fetched
  const release = useRef<(() => void) | null>(null)
  const machine = useRef<ExecutionMachine>(null)
  if (!machine.current) {
    const draw = async (id: number) => {
      release.current?.()
      return { query_result: drawnResult(id, await fetchDrawing(widgetId, { parameters: JSON.parse(sent.current), filters: filtersRef.current() })) }
    }
    machine.current = new ExecutionMachine({
      call: async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        if (method === 'POST' && path === '/api/query_results') {
          const answer = await api<{ query_result?: QueryResult }>(method, `/api/queries/${queryId}/results`, { parameters: wanted.current, max_age: maxAge.current })
          return (answer.query_result ? await draw(answer.query_result.id) : answer) as T
        }
        const load = method === 'GET' && /^\/api\/query_results\/(\d+)$/.exec(path)
        // a public page polls its run where its share token is accepted: the query's own job address
        const scoped = pageShareKey() ? path.replace(/^\/api\/jobs\//, `/api/queries/${queryId}/jobs/`) : path
        return (load ? await draw(Number(load[1])) : await api(method, scoped, body)) as T
      },
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => Date.now(),
    }, state, (next) => {
      setState(next)
      if (next.result && next.phase === 'done') setRedrawn(null)
    })
  }
  useEffect(() => () => machine.current?.stop(), [])

  /**
   * Run the query, taking a stored result no older than `age` seconds (0: run it now; -1: any), with these parameter
   * values (else the last ones given). New values asked for while a run with others is on its way run after it.
   */
  const refresh = useCallback(async (age: number, values?: Record<string, unknown>): Promise<void> => {
    if (values) wanted.current = values
    if (pending.current === 'queued') maxAge.current = stricter(maxAge.current, age)
    if (pending.current === 'running' && values && JSON.stringify(values) !== sent.current) again.current = stricter(again.current ?? age, age)
    if (pending.current) return
    pending.current = 'queued'
    maxAge.current = age
    setQueued(true)
    try {
      let executed: Promise<void> = Promise.resolve()
      await dashboardRuns.run(() => new Promise<void>((resolve) => {
        pending.current = 'running'
        sent.current = JSON.stringify(wanted.current)
        setQueued(false)
        release.current = resolve
        executed = machine.current!.execute({ query: '', data_source_id: 0, parameters: {}, apply_auto_limit: false, query_id: queryId }).finally(resolve)
      }))
      await executed
    } finally {
      release.current = null
      pending.current = null
      setQueued(false)
    }
    const next = again.current
    again.current = null
    if (next !== null) await refresh(next)
  }, [queryId])

  /**
   * The result shown drawn again with the filters' choice now (no run): the values of the last run, else those of the
   * page's drawing. A run on its way draws with the new choice when it ends, so nothing is asked meanwhile.
   */
  const redraw = useCallback(async () => {
    if (pending.current) return
    try {
      setRedrawn(await fetchDrawing(widgetId, { parameters: JSON.parse(sent.current), filters: filtersRef.current() }))
    } catch {
      // the card keeps what it shows; the next run or choice tries again
    }
  }, [widgetId])

  const result = state.result as DrawnResult | null
  const drawing = redrawn ?? result?.drawing ?? null
  const run: WidgetRun = {
    drawing,
    resultId: drawing?.query_result?.id ?? initial.resultId,
    retrievedAt: drawing?.query_result?.retrieved_at ?? initial.retrievedAt,
    error: state.phase === 'failed' ? state.error : null,
    busy: queued || isRunning(state),
  }
  return { run, refresh, redraw, values: () => JSON.parse(sent.current) as Record<string, unknown> }
}
