import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, jobEnd, warehouseOptions } from './support.ts'

/**
 * Embeds in a real browser: the page framed by a site on another port (no session there), its parameters from the
 * address, its chart without script and as wide as its frame, and the query page's Embed dialog that makes the snippet.
 * Its filter without script is checked on the server's HTML (test/pages/embeds.test.ts).
 */
const suite = browserSuite({ role: 'all' })
const { open, api } = suite
let chart: { id: number; vis: number; key: string }
let counter: { id: number; vis: number; key: string }
let host: http.Server
let hostUrl: string
let framePath = '/'

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const make = async (name: string, query: string, vis: { type: string; options: unknown }, options: unknown = {}) => {
    const q = await api<{ id: number; api_key: string }>('POST', '/api/queries', { data_source_id: warehouse, name, query, options })
    const v = await api<{ id: number }>('POST', '/api/visualizations', { query_id: q.id, name: `${name} chart`, ...vis })
    return { id: q.id, vis: v.id, key: q.api_key }
  }
  chart = await make('Orders by region', "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
    { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } } })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${chart.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  counter = await make('Tripled', 'select {{ n }} * 3 as tripled', { type: 'COUNTER', options: { counterColName: 'tripled' } },
    { parameters: [{ name: 'n', title: 'N', type: 'number', value: 1 }] })

  // another site: a page on its own port that frames the embed
  host = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html')
    res.end(`<!doctype html><title>Host</title><h1>Elsewhere</h1><iframe id="embed" src="${suite.server.url}${framePath}" width="720" height="391"></iframe>`)
  })
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
  hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`
}, 60_000)
afterAll(async () => {
  await new Promise((resolve) => host?.close(resolve))
})

const embedPath = (q: { id: number; vis: number; key: string }, more = '') => `/embed/query/${q.id}/visualization/${q.vis}?api_key=${q.key}${more}`

describe('the embed page', () => {
  it('renders its chart in an iframe on a site served from another port, with no session', async () => {
    framePath = embedPath(chart)
    const { page, problems } = await suite.newPage({ as: null })
    await page.goto(hostUrl)
    const frame = page.frameLocator('#embed')
    await frame.locator('[data-embed-output] svg[role="img"]').waitFor()
    expect(await frame.getByRole('heading', { level: 1 }).textContent()).toContain('Orders by region')
    expect(await frame.locator('svg [data-mark], svg rect, svg path').count()).toBeGreaterThan(0)
    expect(problems).toEqual([])
  })

  it('runs with the parameters of the address, and the form applies new ones', async () => {
    framePath = embedPath(counter, '&p_n=14')
    const { page } = await suite.newPage({ as: null })
    await page.goto(hostUrl)
    const frame = page.frameLocator('#embed')
    await frame.locator('.sl-counter-value', { hasText: '42' }).waitFor()
    await frame.getByLabel('N', { exact: true }).fill('5')
    await frame.getByRole('button', { name: 'Apply Changes' }).click()
    await frame.locator('.sl-counter-value', { hasText: '15' }).waitFor()
  })

  for (const width of [1200, 720, 390]) {
    it(`draws the chart across the frame's whole width, ${width} px, without script`, async () => {
      const { page, scripts } = await open(embedPath(chart), { script: false, as: null, viewport: { width, height: 700 } })
      const svg = page.locator('[data-embed-output] > svg[role="img"]')
      const [box, drawn] = await Promise.all([page.locator('[data-embed-output]').boundingBox(), svg.boundingBox()])
      expect(Math.abs(drawn!.width - box!.width)).toBeLessThanOrEqual(1)
      // scaled as a picture: the proportions it was drawn with
      const [w, h] = [Number(await svg.getAttribute('width')), Number(await svg.getAttribute('height'))]
      expect(Math.abs(drawn!.height / drawn!.width - h / w)).toBeLessThan(0.01)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
      expect(scripts).toEqual([])
    })
  }

})

describe("the query page's Embed dialog", () => {
  it('shows the snippet at 720 x 391, follows the size and switches, and copies', async () => {
    const { page, problems } = await open(`/queries/${chart.id}#${chart.vis}`, {
      prepare: (c) => c.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.url }),
    })
    await page.locator(`[data-tab-id="${chart.vis}"]`).click()
    await page.locator('[data-embed-button]').click()
    const dialog = page.getByRole('dialog', { name: 'Embed Query' })
    const snippet = dialog.locator('[data-embed-snippet]')
    await snippet.filter({ hasText: 'iframe' }).waitFor()
    const address = `${suite.server.url}/embed/query/${chart.id}/visualization/${chart.vis}?api_key=${chart.key}`
    expect(await snippet.textContent()).toBe(`<iframe src="${address}" width="720" height="391"></iframe>`)
    await dialog.locator('[data-embed-width]').fill('600')
    await dialog.locator('[data-switch="hide_link"]').check()
    expect(await snippet.textContent()).toBe(`<iframe src="${address}&hide_link" width="600" height="391"></iframe>`)
    expect(await dialog.locator('[data-embed-url]').textContent()).toBe(`${address}&hide_link`)
    await dialog.getByRole('button', { name: 'Copy' }).first().click()
    await dialog.getByRole('button', { name: 'Copied!' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`<iframe src="${address}&hide_link" width="600" height="391"></iframe>`)
    expect(problems).toEqual([])
  })

  it('is linked from the Show API Key dialog, with the results addresses', async () => {
    const { page, problems } = await open(`/queries/${chart.id}`)
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Show API Key' }).click()
    const dialog = page.getByRole('dialog', { name: 'API Key' })
    const link = dialog.locator('[data-embed-addresses] a', { hasText: `/visualization/${chart.vis}?` })
    await link.waitFor()
    expect(await link.getAttribute('href')).toBe(`${suite.server.url}/embed/query/${chart.id}/visualization/${chart.vis}?api_key=${chart.key}`)
    await dialog.getByText(`/api/queries/${chart.id}/results.csv?api_key=${chart.key}`).waitFor()
    expect(problems).toEqual([])
  })
})
