import { parseHTML } from 'linkedom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { principalToRunAs } from '../../src/credentials/index.ts'
import { dashboardSvg, drawDashboard, MAX_VALUE_LENGTH } from '../../src/rendering/index.ts'
import { startWorkerFor } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * Exports draw a dashboard on the server with the caller's rights: a member whose groups lack a widget's source gets
 * its placeholder and nothing of its rows, title or query, whatever values the address carries; an address too large
 * to be a person's choice is refused; a text box's markup never becomes part of the picture's SVG.
 */
let f: QueryFixture
let worker: { stop(): Promise<void> }
let board: number
let secretWidget: number
let secretVisualization: number

beforeAll(async () => {
  f = await queryFixture()
  worker = await startWorkerFor(f.t)
  const secret = await newQuery(f.admin, {
    data_source_id: f.shared, name: 'Payroll by person',
    query: `select 'salary-of-' || {{who}} as payroll_row`,
    options: { parameters: [{ name: 'who', title: 'who', type: 'number', value: 1 }] },
  })
  const ran = await outcomeOf(f.admin, await f.admin.post(`/api/queries/${secret.id}/results`, { parameters: { who: 7 }, max_age: 0 }))
  expect(ran.error).toBeUndefined()
  secretVisualization = (secret.visualizations as { id: number }[])[0].id
  board = (await (await f.admin.post('/api/dashboards', { name: 'Mixed' })).json()).id
  secretWidget = (await (await f.admin.post('/api/widgets', { dashboard_id: board, visualization_id: secretVisualization, options: {} })).json()).id
  await f.admin.post('/api/widgets', {
    dashboard_id: board, visualization_id: null, options: { position: { col: 0, row: 10, sizeX: 6, sizeY: 3 } },
    text: '<image href="/etc/hostname"/> <script>alert(1)</script> ![x](file:///etc/passwd) </text><image href="x"/>',
  })
}, 120_000)
afterAll(async () => {
  await worker?.stop()
  await f?.t.close()
})

describe('a member without the source', () => {
  it('gets the placeholder, never the rows, the query or its name, whatever values the address asks for', async () => {
    const cleo = (await principalToRunAs(f.t.db.sql, f.ids.cleo))!
    for (const search of ['', `p_who=7`, `p_w${secretWidget}_who=7`]) {
      const drawn = await drawDashboard(f.t.deps, cleo, board, { search: new URLSearchParams(search), refreshOlderThanSeconds: 3600 })
      const widget = drawn.widgets.find((w) => w.widgetId === secretWidget)!
      expect(widget.kind).toBe('restricted')
      expect(widget.svg ?? widget.html).toBeUndefined()
      expect(JSON.stringify(drawn)).not.toMatch(/salary-of|payroll|Payroll/)
      expect(dashboardSvg(drawn)).not.toMatch(/salary-of|payroll|Payroll/)
    }
    // and the admin, who may read it, gets its rows: the placeholder above is the rights', not the drawing's
    const admin = (await principalToRunAs(f.t.db.sql, f.ids.admin))!
    const theirs = await drawDashboard(f.t.deps, admin, board, { search: new URLSearchParams(`p_w${secretWidget}_who=7`) })
    expect(theirs.widgets.find((w) => w.widgetId === secretWidget)!.html).toContain('salary-of-7')
  })

  it('runs nothing for them when a refresh is asked for', async () => {
    const before = (await f.t.db.sql<{ n: string }[]>`select count(*) as n from executions`)[0].n
    const cleo = (await principalToRunAs(f.t.db.sql, f.ids.cleo))!
    await drawDashboard(f.t.deps, cleo, board, { search: new URLSearchParams('p_who=8'), refreshOlderThanSeconds: 0 })
    expect((await f.t.db.sql<{ n: string }[]>`select count(*) as n from executions`)[0].n).toBe(before)
  })

  it('cannot export the visualization alone (404, as its query)', async () => {
    expect(await refusal(f.cleo.get(`/api/visualizations/${secretVisualization}/export.png?p_who=7`))).toEqual([404, 'Not found.'])
    const res = await f.cleo.get(`/api/dashboards/${board}/export.png?p_who=7`)
    expect(res.status).toBe(200)
  })
})

describe('the address', () => {
  it('refuses a value longer than a person types, or more values than a dashboard has, with a 400', async () => {
    const huge = 'x'.repeat(MAX_VALUE_LENGTH + 1)
    for (const path of [`/api/dashboards/${board}/export.pdf`, `/api/dashboards/${board}/export.png`, `/api/visualizations/${secretVisualization}/export.png`]) {
      const [status, message] = await refusal(f.admin.get(`${path}?p_who=${huge}`))
      expect(status).toBe(400)
      expect(message).toMatch(/too long/)
    }
    const many = Array.from({ length: 201 }, (_, i) => `p_x${i}=1`).join('&')
    expect(await refusal(f.admin.get(`/api/dashboards/${board}/export.pdf?${many}`))).toEqual([400, 'An export takes at most 200 parameter and filter values.'])
  })
})

describe('a flood of exports', () => {
  it('is drawn a few at a time: every answer is the picture or a 429 with a message and Retry-After, never a 5xx', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => f.admin.get(`/api/dashboards/${board}/export.png`)))
    for (const res of answers) {
      expect([200, 429]).toContain(res.status)
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('5')
        expect((await res.json()).message).toMatch(/Too many exports/)
      } else {
        expect(res.headers.get('content-type')).toBe('image/png')
      }
    }
  })
})

describe('a text box', () => {
  it('becomes text in the picture, never elements: no image, script or outside reference', async () => {
    const admin = (await principalToRunAs(f.t.db.sql, f.ids.admin))!
    const svg = dashboardSvg(await drawDashboard(f.t.deps, admin, board, {}))
    const { document } = parseHTML(`<html><body>${svg}</body></html>`)
    expect(document.querySelectorAll('image, script, foreignObject, use, a')).toHaveLength(0)
    expect([...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => /^on|href/.test(n))).toEqual([])
  })
})
