import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite } from './support.ts'

/**
 * Every box that searches queries or dashboards says so in the spec's words, 'Search Queries...' and
 * 'Search Dashboards...': the lists, Add Widget, Add to Dashboard and the alert's query picker.
 */
const suite = browserSuite()
const { api } = suite
let boardPath = ''
let queryId = 0

beforeAll(async () => {
  const source = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Numbers', type: 'pg', options: { host: 'localhost', port: 1, user: 'x', dbname: 'x' } })).id
  const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', { data_source_id: source, name: 'Numbers', query: 'select 1 as n', is_draft: false })
  queryId = q.id
  await api('POST', '/api/visualizations', { query_id: q.id, type: 'TABLE', name: 'Rows', options: {} })
  const d = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Board' })
  boardPath = `/dashboards/${d.id}-${d.slug}`
})

describe('search placeholders', () => {
  it("read 'Search Queries...' wherever queries are searched", async () => {
    const lists = await suite.open('/queries')
    await lists.page.getByPlaceholder('Search Queries...', { exact: true }).waitFor()

    const board = await suite.open(`${boardPath}?edit`)
    await board.page.getByRole('button', { name: 'Add Widget' }).click()
    await board.page.getByRole('dialog', { name: 'Add Widget' }).getByPlaceholder('Search Queries...', { exact: true }).waitFor()

    const alert = await suite.open('/alerts/new')
    await alert.page.getByPlaceholder('Search Queries...', { exact: true }).waitFor()
    for (const opened of [lists, board, alert]) expect(opened.problems).toEqual([])
  })

  it("read 'Search Dashboards...' wherever dashboards are searched", async () => {
    const lists = await suite.open('/dashboards')
    await lists.page.getByPlaceholder('Search Dashboards...', { exact: true }).waitFor()

    const query = await suite.open(`/queries/${queryId}`)
    await query.page.getByRole('tab', { name: 'Rows' }).click()
    await query.page.getByRole('button', { name: 'Add to Dashboard' }).click()
    await query.page.getByRole('dialog', { name: 'Add to Dashboard' }).getByPlaceholder('Search Dashboards...', { exact: true }).waitFor()
    for (const opened of [lists, query]) expect(opened.problems).toEqual([])
  })
})
