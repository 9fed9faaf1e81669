import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, jobEnd, warehouseOptions } from './support.ts'
import { openEditor } from './editor.ts'

/**
 * Result filters on the query page and the source page (spec 1 §5): a `::filter` or `::multi-filter` column shows the
 * dashboards' filter control above the result, reads as the column it filters by, and the table, the charts and the
 * editor's preview show the rows of the values chosen there, never fewer rows without a control saying so.
 */
const suite = browserSuite({ role: 'all' }) // a worker too, so the query has a stored result
const { api } = suite
let warehouse: number

type Query = { id: number }
const SALES = `select * from (values ('North', 'a', 10), ('South', 'b', 20), ('South', 'c', 30), ('East', 'd', 5)) as t("region::filter", item, amount)`
const TEAMS = `select * from (values ('red', 'x', 1), ('blue', 'y', 2), ('green', 'z', 3)) as t("team::multi-filter", member, score)`

beforeAll(async () => {
  warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
}, 60_000)

/** A saved query with a bar chart of item and amount, and its result stored. */
async function queryWithChart(name: string, text: string, x: string, y: string) {
  const query = await api<Query>('POST', '/api/queries', { data_source_id: warehouse, name, query: text })
  const chart = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: query.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { [x]: 'x', [y]: 'y' } },
  })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  return { query, chart }
}

const filters = (page: Page) => page.getByRole('region', { name: 'Filters' })
const cells = (page: Page, column: number) => page.locator(`[data-results-grid] [role="row"] [role="cell"]:nth-child(${column})`).allTextContents()
const bars = (page: Page, visId: number) => page.locator(`[data-chart-output="${visId}"] svg rect`).count()

describe('a result with a filter column', () => {
  it('shows the filter above the result on the query page, and the table and the chart follow it', async () => {
    const { query, chart } = await queryWithChart('Sales by region', SALES, 'item', 'amount')
    const { page, problems } = await suite.open(`/queries/${query.id}`)
    await page.locator('[data-results-grid]').waitFor()
    const region = filters(page).getByLabel('region', { exact: true })
    // the first row's value, shown: the table holds only its rows
    expect(await region.inputValue()).toBe('North')
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^region/), expect.stringMatching(/^item/)]))
    expect(await page.getByRole('columnheader', { name: /region::filter/ }).count()).toBe(0)
    expect(await page.getByRole('columnheader', { name: 'Sort by region' }).count()).toBe(1)
    expect(await cells(page, 2)).toEqual(['a'])
    expect(await page.locator('[data-row-count]').textContent()).toBe('1 row')

    await region.selectOption('South')
    await expect.poll(() => cells(page, 2)).toEqual(['b', 'c'])
    await page.getByRole('tab', { name: 'Bars' }).click()
    await expect.poll(() => bars(page, chart.id)).toBe(2)
    await region.selectOption('East')
    await expect.poll(() => bars(page, chart.id)).toBe(1)

    // the editor's preview starts from the page's choice, with the same control; the pickers name the column plainly
    await page.getByRole('button', { name: 'Edit Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    const previewRegion = dialog.getByRole('region', { name: 'Filters' }).getByLabel('region', { exact: true })
    expect(await previewRegion.inputValue()).toBe('East')
    await expect.poll(() => dialog.locator('[data-preview-output] svg rect').count()).toBe(1)
    await previewRegion.selectOption('South')
    await expect.poll(() => dialog.locator('[data-preview-output] svg rect').count()).toBe(2)
    expect(await dialog.getByLabel('X Column').locator('option').allTextContents()).toEqual(expect.arrayContaining(['region', 'item']))
    expect(await dialog.getByLabel('X Column').locator('option', { hasText: '::' }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('shows a multi-filter on the source page, with Select All', async () => {
    const { query } = await queryWithChart('Team scores', TEAMS, 'member', 'score')
    const { page, problems } = await openEditor(suite, `/queries/${query.id}/source`, { source: warehouse })
    await page.locator('[data-results-grid]').waitFor()
    const team = filters(page).getByRole('button', { name: 'team', exact: true })
    await team.waitFor()
    expect(await page.getByRole('columnheader', { name: /::multi-filter/ }).count()).toBe(0)
    expect(await cells(page, 2)).toEqual(['x'])
    await team.click()
    await page.getByRole('button', { name: 'Select All' }).click()
    await expect.poll(async () => (await cells(page, 2)).sort()).toEqual(['x', 'y', 'z'])
    expect(problems).toEqual([])
  })
})
