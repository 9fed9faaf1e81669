import { useCallback, useEffect, useRef } from 'react'
import { api, pageShareKey } from '../api.ts'
import { ExecutionMachine } from '../editor/use-execution.ts'
import { useModel, type Dispatch } from '../use-model.ts'
import { initialWidget, redrawWidget, reduceWidget, widgetCall, widgetRun, type WidgetCommand, type WidgetEvent, type WidgetState } from './model.ts'
import { dashboardRuns } from './slots.ts'

/**
 * Carries out a widget's model (./model.ts): each run takes one of the dashboard's slots (`dashboardRuns`) and is
 * followed by the editor's execution machine, without its toasts (a dashboard tells each widget's outcome in its
 * card). `filters()` gives the result filters' choice to draw with.
 */
export function useWidgetRun(widgetId: number, queryId: number, initial: { resultId: number | null; retrievedAt: string | null; now: number },
  filters: () => Record<string, unknown[]>) {
  // the machine's calls read the values and age at the moment they are sent, which may be ahead of the last render
  const latest = useRef<WidgetState | null>(null)
  const reduce = useCallback((state: WidgetState, event: WidgetEvent) => {
    const step = reduceWidget(state, event)
    latest.current = step.state
    return step
  }, [])
  const filtersRef = useRef(filters)
  filtersRef.current = filters
  const release = useRef<(() => void) | null>(null)
  const machine = useRef<ExecutionMachine>(null)

  async function carryOut(command: WidgetCommand, dispatch: Dispatch<WidgetEvent>) {
    if (command.kind === 'redraw') {
      const redrawn = await redrawWidget(api, widgetId, command.parameters, filtersRef.current())
      return redrawn ? dispatch(redrawn) : undefined
    }
    let executed: Promise<void> = Promise.resolve()
    try {
      await dashboardRuns.run(() => new Promise<void>((resolve) => {
        void dispatch({ type: 'started' })
        release.current = resolve
        executed = machine.current!.execute({ query: '', data_source_id: 0, parameters: {}, apply_auto_limit: false, query_id: queryId }).finally(resolve)
      }))
      await executed
    } finally {
      release.current = null
    }
    return dispatch({ type: 'finished' })
  }

  const [state, dispatch] = useModel(reduce, () => initialWidget(initial.now), carryOut)
  if (!machine.current) {
    const call = widgetCall(api, {
      widgetId, queryId, shared: () => pageShareKey() !== null,
      current: () => latest.current ?? state, filters: () => filtersRef.current(), release: () => release.current?.(),
    })
    machine.current = new ExecutionMachine({ call, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), now: () => Date.now() },
      state.execution, (next) => void dispatch({ type: 'execution', state: next }))
  }
  useEffect(() => () => machine.current?.stop(), [])

  /**
   * Run the query, taking a stored result no older than `age` seconds (0: run it now; -1: any), with these parameter
   * values (else the last ones given).
   */
  const refresh = useCallback((maxAge: number, values?: Record<string, unknown>) => dispatch({ type: 'refresh', maxAge, values }), [dispatch])
  /** The result shown drawn again with the filters' choice now (no run). */
  const redraw = useCallback(() => dispatch({ type: 'redraw' }), [dispatch])
  return { state, dispatch, run: widgetRun(state, initial), refresh, redraw }
}
