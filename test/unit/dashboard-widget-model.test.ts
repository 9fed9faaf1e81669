import { describe, expect, it } from 'vitest'
import {
  initialWidget, redrawWidget, reduceWidget, stricter, widgetCall, widgetRun,
  type Api, type WidgetEvent, type WidgetState,
} from '../../islands/lib/dashboard-widget/model.ts'
import type { ExecutionState } from '../../islands/lib/editor/use-execution.ts'
import { fakeApi } from './fake-api.ts'

/** A chart widget's model; the card itself is tested in a browser (test/browser/dashboard-widgets.test.ts, public-dashboards.test.ts). */
const steps = (state: WidgetState, ...events: WidgetEvent[]) => events.reduce((s, e) => reduceWidget(s, e).state, state)
const drawing = (id: number, at = '2026-01-01T00:00:00Z') => ({ drawing: `<svg>${id}</svg>`, filters: [], query_result: { id, retrieved_at: at } })
const execution = (over: Partial<ExecutionState>): ExecutionState =>
  ({ phase: 'idle', result: null, error: null, jobId: null, cancelling: false, startedAt: null, ...over })
const initial = { resultId: 5, retrievedAt: '2025-12-31T00:00:00Z' }
const decode = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams)

describe('dashboard widget model', () => {
  it('goes live once hydrated, keeps its clock, and expands with the values of the last run', () => {
    const s = steps(initialWidget(100), { type: 'hydrated' }, { type: 'tick', now: 200 })
    expect(s).toMatchObject({ live: true, clock: 200, expanded: null })
    const ran = steps(s, { type: 'refresh', maxAge: 0, values: { p: 1 } }, { type: 'started' })
    expect(steps(ran, { type: 'expand' }).expanded).toEqual({ values: { p: 1 } })
    expect(steps(ran, { type: 'expand' }, { type: 'collapse' }).expanded).toBeNull()
  })

  it('runs once at a time: a refresh waiting for its slot takes the stricter age, one on its way is not asked again', () => {
    expect([stricter(-1, 30), stricter(30, -1), stricter(30, 0), stricter(60, 30)]).toEqual([30, 30, 0, 30])
    const first = reduceWidget(initialWidget(0), { type: 'refresh', maxAge: -1 })
    expect(first.state).toMatchObject({ pending: 'queued', maxAge: -1 })
    expect(first.commands).toEqual([{ kind: 'execute' }])
    expect(widgetRun(first.state, initial).busy).toBe(true)
    const stricterAge = reduceWidget(first.state, { type: 'refresh', maxAge: 60 })
    expect(stricterAge).toEqual({ state: { ...first.state, maxAge: 60 }, commands: [] })
    const running = steps(stricterAge.state, { type: 'started' })
    expect(running).toMatchObject({ pending: 'running', sent: '{}' })
    expect(reduceWidget(running, { type: 'refresh', maxAge: 0 })).toEqual({ state: running, commands: [] })
    expect(reduceWidget(running, { type: 'refresh', maxAge: 0, values: {} }).state.again).toBeNull() // the same values
    const done = reduceWidget(running, { type: 'finished' })
    expect(done).toEqual({ state: { ...running, pending: null }, commands: [] })
  })

  it('runs again after the run on its way when other parameter values were asked for meanwhile', () => {
    const running = steps(initialWidget(0), { type: 'refresh', maxAge: 0, values: { p: 1 } }, { type: 'started' })
    const changed = steps(running, { type: 'refresh', maxAge: 30, values: { p: 2 } }, { type: 'refresh', maxAge: 60, values: { p: 3 } })
    expect(changed).toMatchObject({ again: 30, wanted: { p: 3 }, sent: '{"p":1}' })
    const next = reduceWidget(changed, { type: 'finished' })
    expect(next.state).toMatchObject({ pending: 'queued', maxAge: 30, again: null })
    expect(next.commands).toEqual([{ kind: 'execute' }])
    expect(steps(next.state, { type: 'started' }).sent).toBe('{"p":3}')
  })

  it('sends the run with the values and age at the moment it goes, then asks for the drawing, not the rows', async () => {
    const state = steps(initialWidget(0), { type: 'refresh', maxAge: 30, values: { p: 'a' } }, { type: 'started' })
    const server = fakeApi<Api>({ query_result: { id: 9 } })
    let released = 0
    const call = widgetCall(server.call, { widgetId: 4, queryId: 7, shared: () => false, current: () => state, filters: () => ({ f: ['x'] }), release: () => released++ })
    const answer = await call<{ query_result: { id: number; data: unknown } }>('POST', '/api/query_results', { ignored: true })
    expect(server.calls[0]).toEqual(['POST', '/api/queries/7/results', { parameters: { p: 'a' }, max_age: 30 }])
    expect(server.calls[1][0]).toBe('GET')
    expect(String(server.calls[1][1])).toMatch(/^\/api\/widgets\/4\/drawing\?/)
    expect(decode(String(server.calls[1][1]))).toEqual({ parameters: '{"p":"a"}', filters: '{"f":["x"]}' })
    expect(released).toBe(1) // the slot goes back before the drawing is fetched
    expect(answer.query_result).toMatchObject({ id: 9, data: { columns: [], rows: [] } })

    await call('GET', '/api/query_results/12')
    expect(server.calls[2][1]).toMatch(/^\/api\/widgets\/4\/drawing\?/)
    await call('GET', '/api/jobs/abc')
    expect(server.calls[3]).toEqual(['GET', '/api/jobs/abc', undefined])
    const shared = fakeApi<Api>({})
    await widgetCall(shared.call, { widgetId: 4, queryId: 7, shared: () => true, current: () => state, filters: () => ({}), release: () => {} })('GET', '/api/jobs/abc')
    expect(shared.calls).toEqual([['GET', '/api/queries/7/jobs/abc', undefined]])
  })

  it('shows the drawing of the latest result, the run\'s failure, and the page\'s result until then', () => {
    const fresh = initialWidget(0)
    expect(widgetRun(fresh, initial)).toEqual({ drawing: null, resultId: 5, retrievedAt: initial.retrievedAt, error: null, busy: false })
    const result = { id: 9, retrieved_at: '', runtime: 0, data: { columns: [], rows: [] }, drawing: drawing(9) }
    const done = steps(fresh, { type: 'execution', state: execution({ phase: 'done', result }) })
    expect(widgetRun(done, initial)).toMatchObject({ drawing: drawing(9), resultId: 9, retrievedAt: '2026-01-01T00:00:00Z', busy: false })
    const failed = steps(done, { type: 'execution', state: execution({ phase: 'failed', result, error: 'syntax error' }) })
    expect(widgetRun(failed, initial)).toMatchObject({ error: 'syntax error', resultId: 9 })
    expect(widgetRun(steps(done, { type: 'execution', state: execution({ phase: 'processing', result }) }), initial).busy).toBe(true)
  })

  it('draws the shown result again for a filter choice, not while a run is on its way, and keeps it until the next result', async () => {
    const ran = steps(initialWidget(0), { type: 'refresh', maxAge: 0, values: { p: 1 } }, { type: 'started' })
    expect(reduceWidget(ran, { type: 'redraw' }).commands).toEqual([])
    const idle = steps(ran, { type: 'finished' })
    const asked = reduceWidget(idle, { type: 'redraw' })
    expect(asked.commands).toEqual([{ kind: 'redraw', parameters: { p: 1 } }])

    const server = fakeApi<Api>(drawing(10))
    const event = await redrawWidget(server.call, 4, { p: 1 }, { f: ['y'] })
    expect(decode(String(server.calls[0][1]))).toEqual({ parameters: '{"p":1}', filters: '{"f":["y"]}' })
    const redrawn = steps(idle, event!)
    expect(widgetRun(redrawn, initial).drawing).toEqual(drawing(10))
    // a failed redraw leaves the card as it was
    expect(await redrawWidget(fakeApi<Api>(new Error('gone')).call, 4, {}, {})).toBeNull()
    // a later run's result replaces it; one still running does not
    const result = { id: 11, retrieved_at: '', runtime: 0, data: { columns: [], rows: [] }, drawing: drawing(11) }
    expect(steps(redrawn, { type: 'execution', state: execution({ phase: 'processing', result: null }) }).redrawn).toEqual(drawing(10))
    expect(steps(redrawn, { type: 'execution', state: execution({ phase: 'done', result }) }).redrawn).toBeNull()
  })
})
