/**
 * A chart widget's state as a pure model: whether it is live (hydrated), the expanded view, the clock "Updated …"
 * counts from, and its runs. A run waits for one of the dashboard's slots, then POSTs api/queries/{id}/results with
 * the refresh's max_age, is followed by the editor's execution machine, and is drawn by the server
 * (`GET api/widgets/{id}/drawing`) rather than loaded as rows. A refresh asked while one is on its way is not queued
 * again (it would join the same execution on the server); one still waiting for its slot takes the stricter age, and
 * new parameter values asked for while a run with others is on its way run after it. Side effects are commands the
 * island carries out; the calls the execution machine makes are `widgetCall`. Tested without React.
 */
import type { QueryResult } from '../editor/types.ts'
import { initialExecution, isRunning, type ExecutionState } from '../editor/use-execution.ts'
import { only, type Step } from '../use-model.ts'
import { drawingPath, type WidgetDrawing } from './server-drawing.ts'

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
type Values = Record<string, unknown>

/** The stricter of two ages: 0 runs now, -1 takes any stored result, any other the youngest asked for. */
export const stricter = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : Math.min(a, b))

export interface WidgetState {
  live: boolean
  expanded: { values: Values } | null
  clock: number
  execution: ExecutionState
  /** A run waiting for its slot, or on its way. */
  pending: 'queued' | 'running' | null
  /** The age the waiting run takes a stored result at. */
  maxAge: number
  /** The parameter values to run with next, and (as JSON) those of the run on its way or last run. */
  wanted: Values
  sent: string
  /** The age of a run asked for with other values while one was on its way. */
  again: number | null
  /** A drawing made again for a filter choice, until the next run's result replaces it. */
  redrawn: WidgetDrawing | null
}

export const initialWidget = (now: number): WidgetState => ({
  live: false, expanded: null, clock: now, execution: initialExecution(null), pending: null, maxAge: 0, wanted: {}, sent: '{}', again: null, redrawn: null,
})

export type WidgetEvent =
  | { type: 'hydrated' }
  | { type: 'tick'; now: number }
  | { type: 'expand' }
  | { type: 'collapse' }
  | { type: 'refresh'; maxAge: number; values?: Values }
  /** Its slot came: the run starts with the values wanted now. */
  | { type: 'started' }
  | { type: 'execution'; state: ExecutionState }
  | { type: 'finished' }
  | { type: 'redraw' }
  | { type: 'redrawn'; drawing: WidgetDrawing }

export type WidgetCommand =
  | { kind: 'execute' }
  | { kind: 'redraw'; parameters: Values }

export function reduceWidget(state: WidgetState, event: WidgetEvent): Step<WidgetState, WidgetCommand> {
  switch (event.type) {
    case 'hydrated': return only({ ...state, live: true })
    case 'tick': return only({ ...state, clock: event.now })
    case 'expand': return only({ ...state, expanded: { values: JSON.parse(state.sent) } })
    case 'collapse': return only({ ...state, expanded: null })
    case 'refresh': {
      let next = event.values ? { ...state, wanted: event.values } : state
      if (state.pending === 'queued') next = { ...next, maxAge: stricter(state.maxAge, event.maxAge) }
      if (state.pending === 'running' && event.values && JSON.stringify(event.values) !== state.sent) {
        next = { ...next, again: stricter(state.again ?? event.maxAge, event.maxAge) }
      }
      if (state.pending) return only(next)
      return { state: { ...next, pending: 'queued', maxAge: event.maxAge }, commands: [{ kind: 'execute' }] }
    }
    case 'started': return only({ ...state, pending: 'running', sent: JSON.stringify(state.wanted) })
    case 'execution': {
      // a new result replaces a drawing made for a filter choice
      const done = event.state.result && event.state.phase === 'done'
      return only({ ...state, execution: event.state, redrawn: done ? null : state.redrawn })
    }
    case 'finished': {
      const settled = { ...state, pending: null, again: null }
      return state.again === null ? only(settled) : reduceWidget(settled, { type: 'refresh', maxAge: state.again })
    }
    case 'redraw':
      // a run on its way draws with the new choice when it ends, so nothing is asked meanwhile
      return state.pending ? only(state) : { state, commands: [{ kind: 'redraw', parameters: JSON.parse(state.sent) }] }
    case 'redrawn': return only({ ...state, redrawn: event.drawing })
  }
}

/**
 * A result as a widget holds it: its id and time, and the server's drawing of it. A widget never loads the rows: the
 * execution machine's result load is answered by the drawing call, so `data` stays empty.
 */
type DrawnResult = QueryResult & { drawing: WidgetDrawing }

const drawnResult = (id: number, d: WidgetDrawing): DrawnResult =>
  ({ id: d.query_result?.id ?? id, retrieved_at: d.query_result?.retrieved_at ?? '', runtime: 0, data: { columns: [], rows: [] }, drawing: d })

/** What the card shows of its runs. */
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

export function widgetRun(state: WidgetState, initial: { resultId: number | null; retrievedAt: string | null }): WidgetRun {
  const drawing = state.redrawn ?? (state.execution.result as DrawnResult | null)?.drawing ?? null
  return {
    drawing,
    resultId: drawing?.query_result?.id ?? initial.resultId,
    retrievedAt: drawing?.query_result?.retrieved_at ?? initial.retrievedAt,
    error: state.execution.phase === 'failed' ? state.execution.error : null,
    busy: state.pending === 'queued' || isRunning(state.execution),
  }
}

export interface WidgetCallContext {
  widgetId: number
  queryId: number
  /** On a public page the run is polled where the share token is accepted: the query's own job address. */
  shared: () => boolean
  current: () => WidgetState
  filters: () => Record<string, unknown[]>
  /** Gives the dashboard's slot back: a run holds it until its result is stored, not while its drawing is fetched. */
  release: () => void
}

/** The calls the execution machine makes for a widget: its query's run, then the server's drawing for its rows. */
export function widgetCall(call: Api, to: WidgetCallContext): Api {
  const draw = async (id: number) => {
    to.release()
    const drawing = await call<WidgetDrawing>('GET', drawingPath(to.widgetId, { parameters: JSON.parse(to.current().sent), filters: to.filters() }))
    return { query_result: drawnResult(id, drawing) }
  }
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    if (method === 'POST' && path === '/api/query_results') {
      const { wanted, maxAge } = to.current()
      const answer = await call<{ query_result?: QueryResult }>(method, `/api/queries/${to.queryId}/results`, { parameters: wanted, max_age: maxAge })
      return (answer.query_result ? await draw(answer.query_result.id) : answer) as T
    }
    const load = method === 'GET' && /^\/api\/query_results\/(\d+)$/.exec(path)
    const scoped = to.shared() ? path.replace(/^\/api\/jobs\//, `/api/queries/${to.queryId}/jobs/`) : path
    return (load ? await draw(Number(load[1])) : await call(method, scoped, body)) as T
  }
}

/** The shown result drawn again with the filters' choice; null when that failed (the card keeps what it shows). */
export async function redrawWidget(call: Api, widgetId: number, parameters: Values, filters: Record<string, unknown[]>): Promise<WidgetEvent | null> {
  try {
    return { type: 'redrawn', drawing: await call<WidgetDrawing>('GET', drawingPath(widgetId, { parameters, filters })) }
  } catch {
    return null
  }
}
