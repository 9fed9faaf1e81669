import type { Locator } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, jobEnd, PHONE, warehouseOptions } from './support.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * A chart in a widget of the default height that also shows a filter control: the plot is drawn to the room the
 * control leaves, so its x-axis shows whole, on the page's first drawing and after a filter choice, on a desk and a
 * phone. With the dashboard's filters merged into its panel the card has no control, and the chart takes it all.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
const boards = { own: '', merged: '' }

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const q = await api<{ id: number }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Weekly orders',
    query: `select * from (values ('North', 'week 1', 12), ('North', 'week 2', 30), ('South', 'week 1', 7), ('South', 'week 2', 18)) as t("region::filter", week, orders)`,
  })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const chart = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, type: 'CHART', name: 'Orders chart', options: { globalSeriesType: 'column', columnMapping: { week: 'x', orders: 'y' } },
  })
  for (const kind of ['own', 'merged'] as const) {
    const d = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: `Orders ${kind}` })
    // no sizeY: the default height of a chart widget
    await api('POST', '/api/widgets', { dashboard_id: d.id, visualization_id: chart.id, options: { position: { col: 0, row: 0, sizeX: 3 } } })
    await api('POST', `/api/dashboards/${d.id}`, { is_draft: false, dashboard_filters_enabled: kind === 'merged' })
    boards[kind] = `/dashboards/${d.id}-${d.slug}`
  }
}, 120_000)

/** How far the chart's drawing reaches below the visible part of its box (0 or less: it fits), and how much room is left. */
const overflow = (drawing: Locator) => drawing.evaluate((box) => {
  const svg = box.querySelector('svg')!.getBoundingClientRect()
  const inner = box.getBoundingClientRect()
  const bottom = inner.bottom - parseFloat(getComputedStyle(box).paddingBottom)
  const drawn = box.querySelector('svg')!
  // the same scale both ways: drawn to fit, not squeezed into the box by the stylesheet
  const squeezed = Math.abs(svg.height / Number(drawn.getAttribute('height')) - svg.width / Number(drawn.getAttribute('width'))) > 0.02
  return { below: Math.round(svg.bottom - bottom), left: Math.round(bottom - svg.bottom), scrolls: box.scrollHeight > box.clientHeight + 1, squeezed }
})

describe('a default-height chart widget with a filter control', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows its whole x-axis above the card's end, before and after a choice, at ${viewport.width} px`, async () => {
      const { page, problems } = await suite.open(boards.own, { viewport })
      const card = page.locator('article[data-widget-id]')
      const control = card.getByRole('group', { name: /^Filters of / })
      await control.getByLabel('region').waitFor()
      const drawing = card.locator('[data-widget-drawing]')
      await card.locator('svg').first().waitFor()
      let fit = await overflow(drawing)
      expect(fit.below).toBeLessThanOrEqual(0)
      expect(fit.scrolls).toBe(false)
      expect(fit.squeezed).toBe(false)
      // drawn to the room: not a small picture in a large box (a phone narrows the picture, and so shortens it)
      if (viewport === DESKTOP) expect(fit.left).toBeLessThan(40)
      await control.getByLabel('region').selectOption('South')
      await drawing.and(page.locator('[data-drawn-by="redrawn"]')).waitFor()
      fit = await overflow(drawing)
      expect(fit.below).toBeLessThanOrEqual(0)
      expect(fit.scrolls).toBe(false)
      expect(fit.squeezed).toBe(false)
      expect(await layoutProblems(page, { scope: 'main *' })).toEqual([])
      expect(problems).toEqual([])
    })
  }

  it('takes the whole card when the filters are in the dashboard\'s panel', async () => {
    const { page, problems } = await suite.open(boards.merged, { viewport: DESKTOP })
    await page.getByRole('region', { name: 'Filters' }).waitFor()
    const drawing = page.locator('article[data-widget-id] [data-widget-drawing]')
    const fit = await overflow(drawing)
    expect(fit.below).toBeLessThanOrEqual(0)
    expect(fit.scrolls).toBe(false)
    expect(fit.left).toBeLessThan(40)
    expect(problems).toEqual([])
  })
})
