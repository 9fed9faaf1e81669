import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { principalToRunAs } from '../../src/credentials/index.ts'
import { drawDashboard, pngSize } from '../../src/rendering/index.ts'
import { startWorkerFor, type Client } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * Exports (`GET api/dashboards/{id}/export.pdf|png`, `GET api/visualizations/{id}/export.png`): drawn on the server
 * for the caller, with their rights: a widget of a source they may not read is a placeholder, a failed run shows its
 * error, and what they may not see at all is 404.
 */
let f: QueryFixture
let worker: { stop(): Promise<void> }
let board: number
let chart: number
let sharedTable: number
let failing: number
let salesQuery: number
const widgets: Record<string, number> = {}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

async function bytes(pending: Promise<Response>, type: string): Promise<Uint8Array> {
  const res = await pending
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200)
  expect(res.headers.get('content-type')).toBe(type)
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[A-Za-z0-9-]+\.(pdf|png)"$/)
  return new Uint8Array(await res.arrayBuffer())
}

async function visualization(client: Client, queryId: number, type: string, options: Record<string, unknown>) {
  return (await json(client.post('/api/visualizations', { query_id: queryId, type, name: `${type} view`, options }))).id as number
}

async function ran(client: Client, queryId: number) {
  return outcomeOf(client, await client.post(`/api/queries/${queryId}/results`, { parameters: {}, max_age: 0 }))
}

beforeAll(async () => {
  f = await queryFixture()
  worker = await startWorkerFor(f.t)
  const sales = await newQuery(f.admin, {
    data_source_id: f.warehouse, name: 'Sales',
    query: `select r as region, n as sales from (values ('North', 10), ('South', 25), ('East', 17)) v(r, n)`,
  })
  const secret = await newQuery(f.admin, {
    data_source_id: f.shared, name: 'Secret',
    query: `select 'classified-row-' || n as secret_value from generate_series(1, 3) n`,
  })
  salesQuery = sales.id
  const broken = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Broken', query: 'select * from no_such_table_here' })
  expect((await ran(f.admin, sales.id)).error).toBeUndefined()
  expect((await ran(f.admin, secret.id)).error).toBeUndefined()
  expect((await ran(f.admin, broken.id)).error).toMatch(/no_such_table_here/)
  chart = await visualization(f.admin, sales.id, 'CHART', { globalSeriesType: 'column', columnMapping: { region: 'x', sales: 'y' } })
  sharedTable = (secret.visualizations as { id: number }[])[0].id
  failing = (broken.visualizations as { id: number }[])[0].id
  board = (await json(f.admin.post('/api/dashboards', { name: 'Quarterly numbers' }))).id
  const add = async (name: string, body: Record<string, unknown>, position: Record<string, number>) => {
    widgets[name] = (await json(f.admin.post('/api/widgets', { dashboard_id: board, ...body, options: { position } }))).id
  }
  await add('text', { visualization_id: null, text: '# Notes\nNumbers **as of** this week.' }, { col: 0, row: 0, sizeX: 6, sizeY: 3 })
  await add('chart', { visualization_id: chart }, { col: 0, row: 3, sizeX: 3, sizeY: 8 })
  await add('table', { visualization_id: (sales.visualizations as { id: number }[])[0].id }, { col: 3, row: 3, sizeX: 3, sizeY: 8 })
  await add('secret', { visualization_id: sharedTable }, { col: 0, row: 11, sizeX: 3, sizeY: 6 })
  await add('broken', { visualization_id: failing }, { col: 3, row: 11, sizeX: 3, sizeY: 6 })
}, 120_000)
afterAll(async () => {
  await worker?.stop()
  await f?.t.close()
})

const drawnFor = async (userId: number) => drawDashboard(f.t.deps, (await principalToRunAs(f.t.db.sql, userId))!, board, {})
const kinds = (d: Awaited<ReturnType<typeof drawnFor>>) => Object.fromEntries(Object.entries(widgets).map(([name, id]) => [name, d.widgets.find((w) => w.widgetId === id)?.kind]))

describe('what each caller gets drawn', () => {
  it('draws every widget for the admin: the chart as SVG, the table as HTML, the failed run as its error', async () => {
    const d = await drawnFor(f.ids.admin)
    expect(d).toMatchObject({ id: board, name: 'Quarterly numbers' })
    expect(kinds(d)).toEqual({ text: 'text', chart: 'chart', table: 'html', secret: 'html', broken: 'error' })
    const broken = d.widgets.find((w) => w.widgetId === widgets.broken)!
    expect(broken.message).toMatch(/no_such_table_here/)
    const drawnChart = d.widgets.find((w) => w.widgetId === widgets.chart)!
    expect(drawnChart.svg).toMatch(/^<svg/)
    expect(drawnChart).toMatchObject({ visualizationId: chart, position: { col: 0, row: 3, sizeX: 3, sizeY: 8 }, dataSourceIds: [f.warehouse] })
    expect(drawnChart.queryResultId).toEqual(expect.any(Number))
  })

  it('draws the shared source\'s widget for its view-only member, and a placeholder for a member without it', async () => {
    expect(kinds(await drawnFor(f.ids.vi)).secret).toBe('html')
    const cleo = await drawnFor(f.ids.cleo)
    expect(kinds(cleo)).toEqual({ text: 'text', chart: 'chart', table: 'html', secret: 'restricted', broken: 'error' })
    expect(JSON.stringify(cleo)).not.toMatch(/classified-row|secret_value|Secret/)
  })
})

describe('refreshing before drawing', () => {
  it('runs a result older than asked once, shared by viewers drawing at the same time, and draws the new one', async () => {
    const before = await drawnFor(f.ids.admin)
    const old = before.widgets.find((w) => w.widgetId === widgets.chart)!.queryResultId!
    await f.t.db.sql`update query_results set retrieved_at = now() - interval '1 hour' where id = ${old}`
    const runs = async () => Number((await f.t.db.sql<{ n: string }[]>`select count(*) as n from executions where query_id = ${salesQuery}`)[0].n)
    const runsBefore = await runs()
    const principal = async (id: number) => (await principalToRunAs(f.t.db.sql, id))!
    const [mine, theirs] = await Promise.all([
      drawDashboard(f.t.deps, await principal(f.ids.admin), board, { refreshOlderThanSeconds: 60 }),
      drawDashboard(f.t.deps, await principal(f.ids.bo), board, { refreshOlderThanSeconds: 60 }),
    ])
    expect(await runs()).toBe(runsBefore + 1)
    const fresh = mine.widgets.find((w) => w.widgetId === widgets.chart)!
    expect(fresh.queryResultId).not.toBe(old)
    expect(theirs.widgets.find((w) => w.widgetId === widgets.chart)!.queryResultId).toBe(fresh.queryResultId)
    expect(Date.parse(fresh.retrievedAt!)).toBeGreaterThan(Date.now() - 60_000)
    // the failing query ran again and failed again: its error is shown
    expect(mine.widgets.find((w) => w.widgetId === widgets.broken)).toMatchObject({ kind: 'error', message: expect.stringMatching(/no_such_table_here/) })
  })
})

describe('the PDF', () => {
  it('is a PDF of the paper and orientation asked for, a page or more', async () => {
    const sizes = { a4: [595.28, 841.89], letter: [612, 792] } as const
    for (const paper of ['a4', 'letter'] as const) {
      for (const orientation of ['landscape', 'portrait'] as const) {
        const pdf = await PDFDocument.load(await bytes(f.admin.get(`/api/dashboards/${board}/export.pdf?paper=${paper}&orientation=${orientation}`), 'application/pdf'))
        expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1)
        expect(pdf.getTitle()).toBe('Quarterly numbers')
        const { width, height } = pdf.getPage(0).getSize()
        const [w, h] = orientation === 'portrait' ? sizes[paper] : [sizes[paper][1], sizes[paper][0]]
        expect([width, height]).toEqual([expect.closeTo(w, 1), expect.closeTo(h, 1)])
      }
    }
  })

  it('is A4 landscape by default, for a member, a view-only member and a member without the source alike', async () => {
    for (const client of [f.bo, f.vi, f.cleo]) {
      const pdf = await PDFDocument.load(await bytes(client.get(`/api/dashboards/${board}/export.pdf`), 'application/pdf'))
      expect(pdf.getPage(0).getSize().width).toBeCloseTo(841.89, 1)
    }
  })

  it('takes several pages when the grid is taller than a page', async () => {
    const tall = (await json(f.admin.post('/api/dashboards', { name: 'Tall' }))).id
    for (let row = 0; row < 60; row += 10) {
      await json(f.admin.post('/api/widgets', { dashboard_id: tall, visualization_id: chart, options: { position: { col: 0, row, sizeX: 6, sizeY: 10 } } }))
    }
    const landscape = await PDFDocument.load(await bytes(f.admin.get(`/api/dashboards/${tall}/export.pdf`), 'application/pdf'))
    const portrait = await PDFDocument.load(await bytes(f.admin.get(`/api/dashboards/${tall}/export.pdf?orientation=portrait`), 'application/pdf'))
    expect(landscape.getPageCount()).toBeGreaterThan(portrait.getPageCount())
    expect(portrait.getPageCount()).toBeGreaterThan(1)
  })
})

describe('the pictures', () => {
  it('draws the dashboard as one PNG as wide as its grid', async () => {
    const png = await bytes(f.bo.get(`/api/dashboards/${board}/export.png`), 'image/png')
    expect([...png.slice(0, 8)]).toEqual(PNG_SIGNATURE)
    const size = pngSize(png)
    expect(size.width).toBe(1232)
    // 17 rows of 50 px, the title and margins
    expect(size.height).toBe(17 * 50 + 40 + 32)
    const double = pngSize(await bytes(f.bo.get(`/api/dashboards/${board}/export.png?scale=2`), 'image/png'))
    expect(double).toEqual({ width: 2464, height: size.height * 2 })
  })

  it('draws one visualization as a PNG at twice its size by default', async () => {
    const png = await bytes(f.vi.get(`/api/visualizations/${chart}/export.png`), 'image/png')
    expect([...png.slice(0, 8)]).toEqual(PNG_SIGNATURE)
    // a half-width widget of 8 rows: 568 × 328 px
    expect(pngSize(png)).toEqual({ width: 1136, height: 656 })
    expect(pngSize(await bytes(f.vi.get(`/api/visualizations/${chart}/export.png?scale=1`), 'image/png'))).toEqual({ width: 568, height: 328 })
  })

  it('draws a table, or a failed query, as a card', async () => {
    for (const id of [sharedTable, failing]) {
      const png = await bytes(f.admin.get(`/api/visualizations/${id}/export.png`), 'image/png')
      expect([...png.slice(0, 8)]).toEqual(PNG_SIGNATURE)
    }
  })
})

describe('refusals', () => {
  it('answers 401 to a stranger and 404 for what the caller may not see at all', async () => {
    for (const path of [`/api/dashboards/${board}/export.pdf`, `/api/dashboards/${board}/export.png`, `/api/visualizations/${chart}/export.png`]) {
      expect((await f.t.app.request(path)).status).toBe(401)
    }
    expect((await f.admin.get('/api/dashboards/999999/export.pdf')).status).toBe(404)
    expect((await f.admin.get('/api/dashboards/abc/export.png')).status).toBe(404)
    expect((await f.admin.get('/api/visualizations/999999/export.png')).status).toBe(404)
    // the shared source's query is none of cleo's: its visualization does not exist for them
    expect(await refusal(f.cleo.get(`/api/visualizations/${sharedTable}/export.png`))).toEqual([404, 'Not found.'])
  })

  it('answers bad values with a 400 and a message', async () => {
    expect(await refusal(f.admin.get(`/api/dashboards/${board}/export.pdf?paper=a3`))).toEqual([400, 'paper must be one of: a4, letter.'])
    expect(await refusal(f.admin.get(`/api/dashboards/${board}/export.pdf?orientation=sideways`))).toEqual([400, 'orientation must be one of: landscape, portrait.'])
    expect(await refusal(f.admin.get(`/api/visualizations/${chart}/export.png?scale=50`))).toEqual([400, 'scale must be a number from 1 to 3.'])
    expect(await refusal(f.admin.get(`/api/dashboards/${board}/export.png?scale=abc`))).toEqual([400, 'scale must be a number from 1 to 3.'])
  })
})
