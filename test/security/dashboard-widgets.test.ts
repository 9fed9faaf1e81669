import { parseHTML } from 'linkedom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newQuery, queryFixture, refusal, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * Dashboards are written by one member and read by everyone: a text box is markdown any editor types, and a widget
 * names a visualization by id. Neither may run script in a reader's browser, nor bring a query the editor cannot see
 * onto a page, nor store options large enough to slow every reader's page.
 */
let f: QueryFixture
let board: number
beforeAll(async () => {
  f = await queryFixture()
  board = (await (await f.bo.post('/api/dashboards', { name: 'Shared board' })).json()).id
  await f.bo.post(`/api/dashboards/${board}`, { is_draft: false })
})
afterAll(() => f.t.close())

const HOSTILE = [
  '<script>document.title="owned"</script>',
  '<img src=x onerror="fetch(\'/api/users\')">',
  '[click](javascript:fetch("/api/users"))',
  '[click](JAVASCRIPT:alert(1))',
  '![pixel](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<svg onload=alert(1)>',
].join('\n\n')

describe('a text box', () => {
  it('reaches other readers with no markup of its own: no script, handler, frame or script address', async () => {
    const res = await f.bo.post('/api/widgets', { dashboard_id: board, visualization_id: null, text: HOSTILE, options: {} })
    expect(res.status).toBe(200)
    const html = await (await f.cleo.get(`/dashboards/${board}`)).text()
    const { document } = parseHTML(html)
    const widget = document.querySelector('[data-widget-id]')!
    expect(widget.querySelectorAll('script, iframe, svg, img, object, embed, style')).toHaveLength(0)
    const attributes = [...widget.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => [a.name, a.value]))
    expect(attributes.filter(([name]) => name.startsWith('on'))).toEqual([])
    expect(attributes.filter(([name, value]) => ['href', 'src'].includes(name) && !/^https:\/\//.test(value))).toEqual([])
    // what was typed is still there, as text
    expect(widget.textContent).toContain('<script>document.title="owned"</script>')
  })
})

describe('a chart widget', () => {
  it('cannot bring a query its editor may not see onto a dashboard', async () => {
    const hidden = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1 as secret', name: 'Board pay' })
    const viz = (hidden.visualizations as { id: number }[])[0].id
    expect((await refusal(f.bo.post('/api/widgets', { dashboard_id: board, visualization_id: viz, options: {} })))[0]).toBe(403)
    const widgets = await f.t.db.sql`select 1 from widgets where visualization_id = ${viz}`
    expect(widgets).toHaveLength(0)
  })

  it('cannot store options or text big enough to weigh on every reader', async () => {
    expect((await refusal(f.bo.post('/api/widgets', { dashboard_id: board, visualization_id: null, text: 'x', options: { pad: 'y'.repeat(200_000) } })))[0]).toBe(400)
    expect((await refusal(f.bo.post('/api/dashboards/' + board, { options: { pad: 'y'.repeat(200_000) } })))[0]).toBe(400)
    expect((await refusal(f.bo.post('/api/widgets', { dashboard_id: board, visualization_id: null, text: 'x'.repeat(150_000) })))[0]).toBe(400)
  })
})
