import { beforeAll, describe, expect, it } from 'vitest'
import { warehouseOptions } from '../helpers/web-session.ts'
import { labelled, pageSuite, selectedOf, submittedAddress, textOf } from './support.ts'

/**
 * An embedded chart as the server draws it: the picture is in the HTML, and the page asks for no script at all; its
 * filter is a form a visitor without script chooses another value with.
 */
const suite = pageSuite({ role: 'all' }) // a worker too, so the query runs to a stored result
const { api } = suite
let chart: { id: number; vis: number; key: string }

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const q = await api<{ id: number; api_key: string }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Orders by region', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
  })
  const v = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, name: 'Orders by region chart', type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })
  chart = { id: q.id, vis: v.id, key: q.api_key }
  await suite.run(q.id)
}, 60_000)

describe('the embed page', () => {
  it('shows the chart without script, and loads none', async () => {
    const { status, document, scripts } = await suite.get(`/embed/query/${chart.id}/visualization/${chart.vis}?api_key=${chart.key}`, null)
    expect(status).toBe(200)
    expect(document.querySelectorAll('[data-embed-output] svg[role="img"]').length).toBeGreaterThan(0)
    expect(scripts).toEqual([])
  })
})

describe('the embed page without script', () => {
  it('says which filter value it draws, and lets a visitor without script choose another', async () => {
    const warehouse = (await api<{ id: number }[]>('GET', '/api/data_sources'))[0].id
    const q = await api<{ id: number; api_key: string; visualizations: { id: number }[] }>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Stores by region',
      query: `select * from (values ('Europe', 'Lyon store'), ('Asia', 'Osaka store'), ('Europe', 'Porto store')) as t("region::filter", store)`,
    })
    await suite.run(q.id)
    const first = await suite.get(`/embed/query/${q.id}/visualization/${q.visualizations[0].id}?api_key=${q.api_key}&hide_timestamp`, null)
    expect(first.scripts).toEqual([])
    const output = () => textOf(first.document.querySelector('[data-embed-output]'))
    expect(output()).toContain('Lyon store')
    // the first row's region is the one drawn, and the filter says so
    const region = labelled(first.document, 'region')!
    expect(selectedOf(region)).toBe('Europe')
    expect([...region.querySelectorAll('option')].map((o) => textOf(o))).toEqual(['Asia', 'Europe'])
    expect(output()).not.toContain('Osaka store')
    // Apply Changes submits the form: the address keeps the key and the switches, and names the choice
    const form = region.closest('form')!
    expect([...form.querySelectorAll('button')].map((b) => textOf(b))).toContain('Apply Changes')
    const chosen = await suite.get(submittedAddress(region, 'Asia', first.url), null)
    const drawn = textOf(chosen.document.querySelector('[data-embed-output]'))
    expect(drawn).toContain('Osaka store')
    expect(drawn).not.toContain('Lyon store')
    expect(selectedOf(labelled(chosen.document, 'region'))).toBe('Asia')
    const address = new URL(chosen.url, suite.server.url).searchParams
    expect([address.get('api_key'), address.has('hide_timestamp'), address.get('region')]).toEqual([q.api_key, true, 'Asia'])
    expect(chosen.scripts).toEqual([])
  })
})
