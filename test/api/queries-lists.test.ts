import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgOptionsFor, type Client } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, storeResult, type QueryFixture, type QueryJson } from './queries-fixture.ts'

let f: QueryFixture
const q = {} as Record<'orders' | 'churn' | 'revenue' | 'shared' | 'archived' | 'textOnly', QueryJson>

beforeAll(async () => {
  f = await queryFixture()
  const publish = async (client: Client, query: QueryJson) => {
    const res = await client.post(`/api/queries/${query.id}`, { is_draft: false })
    if (res.status !== 200) throw new Error(`publish failed: ${res.status}`)
  }
  q.orders = await newQuery(f.bo, {
    data_source_id: f.warehouse, name: 'Orders by region', description: 'Weekly orders',
    query: 'select region, count(*) from sales group by region', tags: ['sales', 'weekly'], schedule: { interval: 3600 },
  })
  q.churn = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Customer churn', query: 'select * from customers where churned', tags: ['sales'] })
  q.revenue = await newQuery(f.cleo, {
    data_source_id: f.warehouse, name: 'Revenue', description: 'From the orders table', query: 'select sum(amount) from payments',
    tags: ['finance'], schedule: { interval: 60 },
  })
  q.shared = await newQuery(f.admin, { data_source_id: f.shared, name: 'Shared orders', query: 'select region from sales', tags: ['sales', 'secret'] })
  q.archived = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Archived orders', query: 'select region from sales', tags: ['sales'] })
  q.textOnly = await newQuery(f.cleo, { data_source_id: f.warehouse, name: 'Untitled', query: 'select * from orders_archive' })
  await publish(f.bo, q.orders)
  await publish(f.cleo, q.revenue)
  await publish(f.admin, q.shared)
  await f.bo.request('DELETE', `/api/queries/${q.archived.id}`)
  // distinct creation days, in the order above, so "newest first" is unambiguous
  for (const [i, query] of Object.values(q).entries()) {
    await f.t.db.sql`update queries set created_at = ${`2024-01-0${i + 1}T00:00:00Z`} where id = ${query.id}`
  }
})
afterAll(() => f.t.close())

type Item = { id: number; name: string; is_favorite: boolean; starred_at?: string; visualizations?: unknown; user: { id: number } }
async function list(client: Client, path: string): Promise<{ count: number; page: number; page_size: number; results: Item[] }> {
  const res = await client.get(path)
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  return res.json()
}
const names = (page: { results: Item[] }) => page.results.map((r) => r.name)

describe('the lists', () => {
  it('lists every visible unarchived query, drafts of everyone included, newest first, without visualizations', async () => {
    const page = await list(f.bo, '/api/queries')
    expect(page).toMatchObject({ count: 4, page: 1, page_size: 25 })
    expect(names(page)).toEqual(['Untitled', 'Revenue', 'Customer churn', 'Orders by region'])
    const untitled = page.results[0]
    expect(untitled).toMatchObject({ is_favorite: false, user: { id: f.ids.cleo }, is_draft: true })
    expect(untitled).not.toHaveProperty('visualizations')
    expect(untitled).not.toHaveProperty('starred_at')
  })

  it('shows view-only sources to their groups and everything to admins', async () => {
    expect(names(await list(f.vi, '/api/queries'))).toContain('Shared orders')
    expect((await list(f.admin, '/api/queries')).count).toBe(5)
    expect(names(await list(f.cleo, '/api/queries'))).not.toContain('Shared orders')
  })

  it('lists the caller\'s own queries, and the archived ones apart', async () => {
    expect(names(await list(f.bo, '/api/queries/my'))).toEqual(['Customer churn', 'Orders by region'])
    expect(names(await list(f.bo, '/api/queries/archive'))).toEqual(['Archived orders'])
    expect(names(await list(f.cleo, '/api/queries/archive'))).toEqual(['Archived orders'])
  })

  it('lists favorites with when they were starred', async () => {
    await f.bo.post(`/api/queries/${q.revenue.id}/favorite`)
    await f.t.db.sql`update favorites set created_at = '2024-02-01T00:00:00Z' where object_id = ${q.revenue.id}`
    await f.bo.post(`/api/queries/${q.orders.id}/favorite`)
    const favorites = await list(f.bo, '/api/queries/favorites?order=-starred_at')
    expect(names(favorites)).toEqual(['Orders by region', 'Revenue'])
    expect(favorites.results[1]).toMatchObject({ is_favorite: true, starred_at: '2024-02-01T00:00:00.000Z' })
    const all = await list(f.bo, '/api/queries')
    expect(all.results.filter((r) => r.is_favorite).map((r) => r.name)).toEqual(['Revenue', 'Orders by region'])
    expect((await list(f.cleo, '/api/queries/favorites')).count).toBe(0)
    await f.bo.request('DELETE', `/api/queries/${q.orders.id}/favorite`)
    expect(names(await list(f.bo, '/api/queries/favorites'))).toEqual(['Revenue'])
  })

  it('answers /recent with the caller\'s unarchived queries, drafts included, most recently changed first, as a plain array', async () => {
    const recent = async () => (await (await f.bo.get('/api/queries/recent')).json()) as Item[]
    expect((await recent()).map((r) => r.name)).toEqual(['Orders by region', 'Customer churn'])
    await f.bo.post(`/api/queries/${q.churn.id}`, { is_draft: false })
    expect((await recent()).map((r) => r.name)).toEqual(['Customer churn', 'Orders by region'])
    await f.bo.post(`/api/queries/${q.orders.id}`, { description: 'Weekly orders, by region' })
    expect((await recent()).map((r) => r.name)).toEqual(['Orders by region', 'Customer churn'])
    await f.bo.post(`/api/queries/${q.churn.id}`, { is_draft: true })
  })
})

describe('order', () => {
  it('sorts by the mapped columns, "-" for descending, empty values last', async () => {
    expect(names(await list(f.bo, '/api/queries?order=name'))).toEqual(['Customer churn', 'Orders by region', 'Revenue', 'Untitled'])
    expect(names(await list(f.bo, '/api/queries?order=-name'))).toEqual(['Untitled', 'Revenue', 'Orders by region', 'Customer churn'])
    expect(names(await list(f.bo, '/api/queries?order=created_at'))).toEqual(['Orders by region', 'Customer churn', 'Revenue', 'Untitled'])
    expect(names(await list(f.bo, '/api/queries?order=schedule')).slice(0, 2)).toEqual(['Revenue', 'Orders by region'])
    expect(names(await list(f.bo, '/api/queries?order=-schedule')).slice(0, 2)).toEqual(['Orders by region', 'Revenue'])
    expect(names(await list(f.bo, '/api/queries?order=created_by')).slice(0, 2).sort()).toEqual(['Customer churn', 'Orders by region'])
    expect(names(await list(f.bo, '/api/queries?order=nonsense'))).toEqual(names(await list(f.bo, '/api/queries')))
  })

  it('sorts by the latest result: runtime and executed_at', async () => {
    const slow = await storeResult(f.t, f.warehouse, 'h1', { runtime: 9, retrievedAt: '2024-03-01T00:00:00Z' })
    const fast = await storeResult(f.t, f.warehouse, 'h2', { runtime: 1, retrievedAt: '2024-04-01T00:00:00Z' })
    await f.t.db.sql`update queries set latest_query_data_id = ${slow} where id = ${q.revenue.id}`
    await f.t.db.sql`update queries set latest_query_data_id = ${fast} where id = ${q.churn.id}`
    expect(names(await list(f.bo, '/api/queries?order=-runtime')).slice(0, 2)).toEqual(['Revenue', 'Customer churn'])
    expect(names(await list(f.bo, '/api/queries?order=runtime')).slice(0, 2)).toEqual(['Customer churn', 'Revenue'])
    expect(names(await list(f.bo, '/api/queries?order=-executed_at')).slice(0, 2)).toEqual(['Customer churn', 'Revenue'])
    const revenue = (await list(f.bo, '/api/queries?order=-runtime')).results[0]
    expect(revenue).toMatchObject({ runtime: 9, retrieved_at: '2024-03-01T00:00:00.000Z' })
  })
})

describe('search', () => {
  it('matches word prefixes, ranking the name above the description above the text', async () => {
    const page = await list(f.bo, '/api/queries?q=ord')
    expect(names(page)).toEqual(['Orders by region', 'Revenue', 'Untitled'])
    expect(page.count).toBe(3)
  })

  it('pages a search in rank order, counting every match on each page, and refuses a page past the end', async () => {
    const first = await list(f.bo, '/api/queries?q=ord&page_size=2')
    const second = await list(f.bo, '/api/queries?q=ord&page_size=2&page=2')
    expect([first.count, second.count]).toEqual([3, 3])
    expect([...names(first), ...names(second)]).toEqual(['Orders by region', 'Revenue', 'Untitled'])
    expect((await f.bo.get('/api/queries?q=ord&page_size=2&page=3')).status).toBe(400)
    expect((await f.bo.get('/api/queries?q=zebra&page=2')).status).toBe(200)
  })

  it('needs every word, in any field', async () => {
    expect(names(await list(f.bo, '/api/queries?q=orders%20weekly'))).toEqual(['Orders by region'])
    expect(names(await list(f.bo, '/api/queries?q=ORDERS%20Table'))).toEqual(['Revenue'])
    expect(await list(f.bo, '/api/queries?q=orders%20zebra')).toMatchObject({ count: 0, results: [] })
  })

  it('finds queries matching either side of an `or`, in any case, each side needing all its words', async () => {
    const either = await list(f.bo, '/api/queries?q=churn%20or%20revenue')
    expect(names(either).sort()).toEqual(['Customer churn', 'Revenue'])
    expect(either.count).toBe(2)
    expect(names(await list(f.bo, '/api/queries?q=zebra%20OR%20weekly%20orders%20or%20churn')).sort()).toEqual(['Customer churn', 'Orders by region'])
    expect(names(await list(f.bo, '/api/queries?q=orders%20zebra%20or%20customers%20zebra'))).toEqual([])
    expect(names(await list(f.bo, '/api/queries?q=or%20churn%20or'))).toEqual(['Customer churn'])
    expect(names(await list(f.bo, `/api/queries?q=zebra%20or%20${q.churn.id}`))).toContain('Customer churn')
  })

  it('matches a query by its id', async () => {
    const page = await list(f.bo, `/api/queries?q=${q.churn.id}`)
    expect(page.results[0].id).toBe(q.churn.id)
  })

  it('keeps the asked order when one is given, and ignores what cannot be searched', async () => {
    expect(names(await list(f.bo, '/api/queries?q=ord&order=-name'))).toEqual(['Untitled', 'Revenue', 'Orders by region'])
    for (const text of ["it's", '(a) | !b', "x\\'y:*&", "o'\\", 'order_items.id', 'ünïcode', '---']) {
      const res = await f.bo.get(`/api/queries?q=${encodeURIComponent(text)}`)
      expect(res.status).toBe(200)
    }
    expect((await list(f.bo, `/api/queries?q=${encodeURIComponent('!!! ---')}`)).count).toBe(4)
  })

  it('searches within a list: archive and my', async () => {
    expect(names(await list(f.bo, '/api/queries/archive?q=ord'))).toEqual(['Archived orders'])
    expect(names(await list(f.bo, '/api/queries/my?q=churn'))).toEqual(['Customer churn'])
  })
})

describe('tags', () => {
  it('filters by every given tag', async () => {
    expect(names(await list(f.bo, '/api/queries?tags=sales'))).toEqual(['Customer churn', 'Orders by region'])
    expect(names(await list(f.bo, '/api/queries?tags=sales&tags=weekly'))).toEqual(['Orders by region'])
    expect(names(await list(f.bo, '/api/queries?tags[]=sales&tags[]=weekly'))).toEqual(['Orders by region'])
    expect((await list(f.bo, '/api/queries?tags=sales&tags=finance')).count).toBe(0)
  })

  it('counts the tags of the queries the caller sees (archived left out)', async () => {
    expect(await (await f.bo.get('/api/queries/tags')).json()).toEqual({
      tags: [{ name: 'finance', count: 1 }, { name: 'sales', count: 2 }, { name: 'weekly', count: 1 }],
    })
    const { tags } = await (await f.vi.get('/api/queries/tags')).json()
    expect(tags).toContainEqual({ name: 'sales', count: 3 })
    expect(tags).toContainEqual({ name: 'secret', count: 1 })
  })
})

describe('paging', () => {
  it('pages with count, page and page_size', async () => {
    const first = await list(f.bo, '/api/queries?page_size=3')
    expect(first).toMatchObject({ count: 4, page: 1, page_size: 3 })
    expect(first.results).toHaveLength(3)
    const second = await list(f.bo, '/api/queries?page_size=3&page=2')
    expect(second.results.map((r) => r.id)).toEqual([q.orders.id])
  })

  it('refuses bad paging with the reference texts', async () => {
    const cases: [string, string][] = [
      ['page=0', 'Page must be positive integer.'],
      ['page=-1', 'Page must be positive integer.'],
      ['page=two', 'Page must be positive integer.'],
      ['page=3&page_size=3', 'Page is out of range.'],
      ['page_size=0', 'Page size is out of range (1-250).'],
      ['page_size=251', 'Page size is out of range (1-250).'],
      ['page_size=ten', 'Page size is out of range (1-250).'],
    ]
    for (const [query, message] of cases) expect(await refusal(f.bo.get(`/api/queries?${query}`))).toEqual([400, message])
    expect(await list(f.bo, '/api/queries?q=zebra&page=3')).toMatchObject({ count: 0, page: 3, results: [] })
  })
})

describe('queries whose source was deleted', () => {
  it('stay visible to their owner and admins only', async () => {
    const temp = await (await f.admin.post('/api/data_sources', { name: 'Temporary', type: 'pg', options: pgOptionsFor(f.t) })).json()
    const orphan = await newQuery(f.bo, { data_source_id: temp.id, query: 'select 1', name: 'Orphan' })
    expect((await f.admin.request('DELETE', `/api/data_sources/${temp.id}`)).status).toBe(204)
    const seen = await (await f.bo.get(`/api/queries/${orphan.id}`)).json()
    expect(seen).toMatchObject({ name: 'Orphan', data_source_id: null, can_edit: true })
    expect(names(await list(f.bo, '/api/queries/my'))).toContain('Orphan')
    expect(names(await list(f.admin, '/api/queries'))).toContain('Orphan')
    expect(names(await list(f.cleo, '/api/queries'))).not.toContain('Orphan')
    expect((await f.cleo.get(`/api/queries/${orphan.id}`)).status).toBe(404)
    const moved = await (await f.bo.post(`/api/queries/${orphan.id}`, { data_source_id: f.warehouse })).json()
    expect(moved.data_source_id).toBe(f.warehouse)
    expect(names(await list(f.cleo, '/api/queries'))).toContain('Orphan')
  })
})
