import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { addUser, browserSuite, DESKTOP, jobEnd, MEMBER, PHONE, signInOverHttp, warehouseOptions } from './support.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * The query page's header and its actions for each person: a favourite star beside the title, a long title readable in
 * full on hover, and Show API Key and Embed only for those who may edit the query and admins (decision 0025): a
 * member looking at someone else's query gets neither, so they cannot publish its data to anyone.
 */
const suite = browserSuite({ role: 'all' })
const { api } = suite
let member: Map<string, string>
let adminsQuery = 0
let membersQuery = 0
const LONG_NAME = 'Revenue by region, channel and week for the whole of the last fiscal year, net of refunds'

beforeAll(async () => {
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const make = async (as: Map<string, string>, name: string) => {
    const q = await api<{ id: number }>('POST', '/api/queries', { data_source_id: warehouse, name, query: "select 'North' as region, 3 as n", is_draft: false }, as)
    await api('POST', '/api/visualizations', { query_id: q.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', n: 'y' } } }, as)
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 }, as)
    if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
    return q.id
  }
  adminsQuery = await make(suite.admin, LONG_NAME)
  membersQuery = await make(member, "Max's orders")
}, 120_000)

/** The names of the More menu's items. */
async function moreItems(page: Page) {
  await page.getByRole('button', { name: 'More actions' }).click()
  const names = await page.getByRole('menuitem').allTextContents()
  await page.keyboard.press('Escape')
  return names
}

/** Shows the Bars visualization, whose toolbar has Embed. */
async function showChart(page: Page) {
  await page.getByRole('tab', { name: 'Bars' }).click()
}

describe('Show API Key and Embed', () => {
  it("are not offered to a member on someone else's query", async () => {
    const { page, problems } = await suite.open(`/queries/${adminsQuery}`, { as: member })
    expect(await moreItems(page)).not.toContain('Show API Key')
    await showChart(page)
    expect(await page.getByRole('button', { name: 'Embed' }).count()).toBe(0)
    expect(await page.locator('[data-embed-button]').count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('are offered to the owner and to an admin', async () => {
    for (const [as, id] of [[member, membersQuery], [suite.admin, membersQuery], [suite.admin, adminsQuery]] as const) {
      const { page, problems } = await suite.open(`/queries/${id}`, { as })
      expect(await moreItems(page)).toContain('Show API Key')
      await showChart(page)
      await page.getByRole('button', { name: 'Embed' }).waitFor()
      expect(problems).toEqual([])
    }
  })
})

describe('the title', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`has a favourite star beside it, and shows in full on hover when cut, at ${viewport.width} px`, async () => {
      const { page, problems } = await suite.open(`/queries/${adminsQuery}`, { as: member, viewport })
      const star = page.getByRole('button', { name: `Favorite ${LONG_NAME}` })
      const name = page.locator('[data-name-field]')
      // beside the title: on its line, just before it
      const [s, n] = [(await star.boundingBox())!, (await name.boundingBox())!]
      expect(Math.abs(s.y + s.height / 2 - (n.y + n.height / 2))).toBeLessThan(8)
      expect(s.x + s.width).toBeLessThanOrEqual(n.x + 1)
      expect(await star.getAttribute('aria-pressed')).toBe('false')
      await star.click()
      await page.getByRole('button', { name: `Favorite ${LONG_NAME}`, pressed: true }).waitFor()
      await expect.poll(async () => (await api<{ is_favorite: boolean }>('GET', `/api/queries/${adminsQuery}`, undefined, member)).is_favorite).toBe(true)
      await page.reload()
      await page.getByRole('button', { name: `Favorite ${LONG_NAME}`, pressed: true }).waitFor()
      await page.getByRole('button', { name: `Favorite ${LONG_NAME}` }).click()
      await expect.poll(async () => (await api<{ is_favorite: boolean }>('GET', `/api/queries/${adminsQuery}`, undefined, member)).is_favorite).toBe(false)

      if (viewport === PHONE) expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
      expect(await name.getAttribute('title')).toBe(LONG_NAME)
      expect(await layoutProblems(page, { scope: '[data-query-header] *' })).toEqual([])
      expect(problems).toEqual([])
    })
  }
})
