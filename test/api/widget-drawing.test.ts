import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startWorkerFor, type Client } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * `GET api/widgets/{id}/drawing` (decision 0020): a chart widget's stored result for given parameter values, drawn by
 * the server's renderer, so the dashboard never needs the chart code. Its rights are those of the widget's results:
 * whoever may see the widget's query (view-only access is enough), nothing for a restricted widget.
 */
let f: QueryFixture
let worker: { stop(): Promise<void> }
let widget: number
let textWidget: number
let resultId: number
let board: number

const SQL = `select {{n}}::int * 1000 + 7 as answer, r as "region::filter" from (values ('North'), ('South')) v(r)`
const drawingOf = async (client: Client | null, id: number, query: Record<string, string>): Promise<Response> => {
  const address = `/api/widgets/${id}/drawing?${new URLSearchParams(query)}`
  return client ? client.get(address) : f.t.app.request(address)
}
async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

beforeAll(async () => {
  f = await queryFixture()
  worker = await startWorkerFor(f.t)
  // a query on `shared`: vi has it view-only, bo and cleo not at all
  const q = await newQuery(f.admin, {
    data_source_id: f.shared, name: 'Answers', query: SQL,
    options: { parameters: [{ name: 'n', title: 'n', type: 'number', value: 1 }] },
  })
  const ran = await outcomeOf(f.admin, await f.admin.post(`/api/queries/${q.id}/results`, { parameters: { n: 5 }, max_age: 0 }))
  expect(ran.error).toBeUndefined()
  resultId = ran.result.id
  board = (await json(f.admin.post('/api/dashboards', { name: 'Drawn' }))).id
  const viz = (q.visualizations as { id: number }[])[0].id
  widget = (await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: viz, options: {} }))).id
  textWidget = (await json(f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: null, text: 'hi', options: {} }))).id
})
afterAll(async () => {
  await worker?.stop()
  await f?.t.close()
})

describe('the drawing by role', () => {
  it('draws the stored result of these values for the admin, with its id, time and filters', async () => {
    const answer = await json(drawingOf(f.admin, widget, { parameters: JSON.stringify({ n: 5 }) }))
    expect(answer.note).toBeNull()
    expect(answer.query_result).toMatchObject({ id: resultId })
    expect(answer.query_result.retrieved_at).toMatch(/^\d{4}-/)
    expect(answer.drawing).toContain('5,007')
    expect(answer.filters).toEqual([expect.objectContaining({ name: 'region::filter', friendlyName: 'region', values: ['North', 'South'] })])
  })

  it('draws it for a view-only member of the source too, and reads p_ arguments like a run does', async () => {
    const answer = await json(drawingOf(f.vi, widget, { p_n: '5' }))
    expect(answer.query_result.id).toBe(resultId)
    expect(answer.drawing).toContain('5,007')
  })

  it('gives a member without the source only the restricted text, and an anonymous caller a 401', async () => {
    const [status, message] = await refusal(drawingOf(f.cleo, widget, { p_n: '5' }))
    expect([status, message]).toEqual([403, "This widget requires access to a data source you don't have access to."])
    const res = await drawingOf(f.bo, widget, { p_n: '5' })
    expect(res.status).toBe(403)
    expect(await res.text()).not.toMatch(/5,007|answer|region/)
    expect((await drawingOf(null, widget, { p_n: '5' })).status).toBe(401)
  })
})

describe('values and filters', () => {
  it('says never-run for values that never ran, and runs nothing', async () => {
    const before = (await f.t.db.sql<{ n: string }[]>`select count(*) as n from executions`)[0].n
    const answer = await json(drawingOf(f.admin, widget, { parameters: JSON.stringify({ n: 6 }) }))
    expect(answer).toMatchObject({ drawing: null, note: 'never-run', query_result: null })
    expect((await f.t.db.sql<{ n: string }[]>`select count(*) as n from executions`)[0].n).toBe(before)
  })

  it('draws only the chosen filter values, and echoes the choice', async () => {
    const all = await json(drawingOf(f.admin, widget, { p_n: '5' }))
    const south = await json(drawingOf(f.admin, widget, { p_n: '5', filters: JSON.stringify({ 'region::filter': ['South'] }) }))
    expect(south.filter_selection).toEqual({ 'region::filter': ['South'] })
    expect(south.drawing).not.toBe(all.drawing)
    expect(south.drawing).not.toContain('North')
  })

  it('draws at a size asked for', async () => {
    const answer = await json(drawingOf(f.admin, widget, { p_n: '5', width: '900', height: '500' }))
    expect(answer.drawing).toContain('max-width:900px;max-height:500px')
  })
})

describe('the page', () => {
  it('draws a widget with parameters from the stored result of the address\'s values, when they ran', async () => {
    const page = async (client: Client, search: string) => {
      const res = await client.get(`/dashboards/${board}?${search}`)
      expect(res.status).toBe(200)
      return res.text()
    }
    expect(await page(f.admin, `p_w${widget}_n=5`)).toContain('5,007')
    expect(await page(f.vi, `p_w${widget}_n=5&region=South`)).toMatch(/5,007<\/td><td[^>]*>South/)
    // values that never ran: the browser runs them
    expect(await page(f.admin, `p_w${widget}_n=6`)).not.toContain('6,007')
    const restricted = await page(f.cleo, `p_w${widget}_n=5`)
    expect(restricted).not.toContain('5,007')
    expect(restricted).toContain('access to a data source you don&#x27;t have access to')
  })
})

describe('bad input', () => {
  it('answers a 4xx with a message, never a 5xx', async () => {
    expect(await refusal(drawingOf(f.admin, widget, { parameters: 'nope' }))).toEqual([400, 'parameters must be a JSON object.'])
    expect(await refusal(drawingOf(f.admin, widget, { parameters: '[1]' }))).toEqual([400, 'parameters must be a JSON object.'])
    expect((await refusal(drawingOf(f.admin, widget, { p_n: 'abc' })))[0]).toBe(400)
    expect(await refusal(drawingOf(f.admin, widget, { p_n: '5', filters: '{"region::filter":"North"}' }))).toEqual([400, 'filters.region::filter must be a list of values.'])
    expect((await refusal(drawingOf(f.admin, widget, { p_n: '5', width: '5', height: '100' })))[0]).toBe(400)
    expect((await refusal(drawingOf(f.admin, widget, { p_n: '5', width: '500' })))[0]).toBe(400)
    expect((await refusal(drawingOf(f.admin, widget, { parameters: 'x'.repeat(70_000) })))[0]).toBe(400)
    expect(await refusal(drawingOf(f.admin, textWidget, {}))).toEqual([404, 'Widget not found.'])
    expect((await drawingOf(f.admin, 999_999, {})).status).toBe(404)
    expect((await drawingOf(f.admin, 0, {})).status).toBe(404)
  })
})
