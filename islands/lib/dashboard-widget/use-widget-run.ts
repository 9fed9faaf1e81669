import { useCallback, useEffect, useRef, useState } from 'react'
import { api } from '../api.ts'
import type { QueryResult } from '../editor/types.ts'
import { ExecutionMachine, initialExecution, isRunning, type ExecutionState } from '../editor/use-execution.ts'
import { dashboardRuns } from './slots.ts'

/** The stricter of two ages: 0 runs now, -1 takes any stored result, any other the youngest asked for. */
const stricter = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : Math.min(a, b))

/** What a widget shows of its runs: the result it holds in the browser, and how the last run went. */
export interface WidgetRun {
  /** The result loaded in the browser (a refresh's, or the stored one the expanded view loaded); null until then. */
  result: QueryResult | null
  /** The result the card shows: the loaded one, else the one the server drew. */
  resultId: number | null
  retrievedAt: string | null
  /** Why the last run failed; null when it did not. */
  error: string | null
  /** Waiting for a slot, running, or loading the result. */
  busy: boolean
}

/**
 * A widget's runs of its saved query: POST api/queries/{id}/results with the refresh's max_age, then the query page's
 * polling and result loading (the editor's execution machine, without its toasts: a dashboard tells each widget's
 * outcome in its card). Every run waits for one of the dashboard's slots (`dashboardRuns`). A refresh asked while one
 * is on its way is not queued again: it would join the same execution on the server anyway; one still waiting for a
 * slot takes the stricter age.
 */
export function useWidgetRun(queryId: number, initial: { resultId: number | null; retrievedAt: string | null }) {
  const [state, setState] = useState<ExecutionState>(() => initialExecution(null))
  const [queued, setQueued] = useState(false)
  const maxAge = useRef(0)
  const pending = useRef<'queued' | 'running' | null>(null)
  // the parameter values to run with next, those of the run on its way, and the age of a run asked for meanwhile
  const wanted = useRef<Record<string, unknown>>({})
  const sent = useRef('{}')
  const again = useRef<number | null>(null)
  const machine = useRef<ExecutionMachine>(null)
  if (!machine.current) {
    machine.current = new ExecutionMachine({
      call: (method, path, body) => method === 'POST' && path === '/api/query_results'
        ? api(method, `/api/queries/${queryId}/results`, { parameters: wanted.current, max_age: maxAge.current })
        : api(method, path, body),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => Date.now(),
    }, state, (next) => setState(next))
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
      await dashboardRuns.run(async () => {
        pending.current = 'running'
        sent.current = JSON.stringify(wanted.current)
        setQueued(false)
        await machine.current!.execute({ query: '', data_source_id: 0, parameters: {}, apply_auto_limit: false, query_id: queryId })
      })
    } finally {
      pending.current = null
      setQueued(false)
    }
    const next = again.current
    again.current = null
    if (next !== null) await refresh(next)
  }, [queryId])

  /** The result shown, in the browser, for drawing it elsewhere (the expanded view); loads the stored one if need be. */
  const load = useCallback(async (resultId: number) => {
    if (pending.current || machine.current!.state.result?.id === resultId) return
    await machine.current!.open(resultId)
  }, [])

  const run: WidgetRun = {
    result: state.result,
    resultId: state.result?.id ?? initial.resultId,
    retrievedAt: state.result?.retrieved_at ?? initial.retrievedAt,
    error: state.phase === 'failed' ? state.error : null,
    busy: queued || isRunning(state),
  }
  return { run, refresh, load }
}
