import type { Page } from 'playwright-core'
import { beforeAll, expect } from 'vitest'
import { addUser, browserSuite, jobEnd, MEMBER, signInOverHttp, warehouseOptions } from './support.ts'

/**
 * What the dashboard edit-mode and header tests share: a test file's server with a worker (so the query has a stored
 * result to draw), a published chart of orders by region, a member, and dashboards of the admin's made to order.
 */
export function dashboardFixture() {
  const suite = browserSuite({ role: 'all' })
  const { api } = suite
  let chartId = 0
  let member: Map<string, string> | undefined

  beforeAll(async () => {
    const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
    const query = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Orders by region', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
    })
    chartId = (await api<{ id: number }>('POST', '/api/visualizations', {
      query_id: query.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
    })).id
    await api('POST', `/api/queries/${query.id}`, { is_draft: false })
    await api('POST', '/api/queries', { data_source_id: warehouse, name: 'Orders draft', query: 'select 1' })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: {}, max_age: 0 })
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    await addUser(suite.server.db, MEMBER)
    member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  }, 60_000)

  /** A dashboard of the admin's with a chart at the left and a text box beside it, published unless asked. */
  async function board(name: string, o: { draft?: boolean } = {}) {
    const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name })
    const chart = await api<{ id: number }>('POST', '/api/widgets', { dashboard_id: created.id, visualization_id: chartId, options: { position: { col: 0, row: 0, sizeX: 2, sizeY: 5 } } })
    const text = await api<{ id: number }>('POST', '/api/widgets', { dashboard_id: created.id, visualization_id: null, text: 'Notes on **orders**', options: { position: { col: 2, row: 0, sizeX: 2, sizeY: 5 } } })
    if (!o.draft) await api('POST', `/api/dashboards/${created.id}`, { is_draft: false })
    return { id: created.id, path: `/dashboards/${created.id}-${created.slug}`, chart: chart.id, text: text.id }
  }

  return {
    suite,
    board,
    /** The member's session (signed in once the file's setup has run). */
    member: () => member!,
    positions: async (id: number) =>
      new Map((await api<BoardJson>('GET', `/api/dashboards/${id}`)).widgets.map((w) => [w.id, w.options.position])),
  }
}

export type Board = Awaited<ReturnType<ReturnType<typeof dashboardFixture>['board']>>

export interface Position { col: number; row: number; sizeX: number; sizeY: number }
export interface BoardJson { id: number; slug: string; name: string; version: number; is_draft: boolean; is_archived: boolean; tags: string[]; widgets: { id: number; text: string; options: { position: Position } }[] }

/** Press the mouse on `from`, move by (dx, dy) in steps, as a hand does, and let go. */
export async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  for (let step = 1; step <= 10; step++) await page.mouse.move(from.x + (dx * step) / 10, from.y + (dy * step) / 10)
  await page.mouse.up()
}

export const saveStatus = (page: Page) => page.locator('[data-save-status]')
export const more = async (page: Page) => page.getByRole('button', { name: 'More actions' }).click()
