import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, signInAs } from '../helpers/app.ts'
import { FORBIDDEN, islandProps, islandsOf, shellIslands } from '../helpers/pages.ts'
import { newQuery, queryFixture, storeResult, type QueryFixture, type QueryJson } from './queries-fixture.ts'

/**
 * The server-rendered query lists (/queries, /my, /favorites, /archive): rows and labels, sorting, tags, search and
 * pages in the address, each list's empty state, the New Query button by permission, and who may open them.
 */
let f: QueryFixture
const q = {} as Record<'orders' | 'churn' | 'revenue' | 'digest' | 'secret', QueryJson>
const RAN_AT = new Date(Date.now() - (2 * 60 + 5) * 60_000) // "2 hours ago"

const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: (await res.text()).replaceAll('<!-- -->', '') }
}
/** The page's own content, without the app shell (whose Create menu also links to /queries/new). */
const mainOf = (html: string) => /<main[^>]*>(.*)<\/main>/s.exec(html)![1]
const rowNames = (html: string) => [...html.matchAll(/<a href="\/queries\/(\d+)" title="([^"]*)"/g)].map((m) => m[2])
const rowOf = (html: string, id: number) => new RegExp(`<tr data-query-id="${id}".*?</tr>`, 's').exec(html)![0]

beforeAll(async () => {
  f = await queryFixture()
  const publish = (client: Client, query: QueryJson) => client.post(`/api/queries/${query.id}`, { is_draft: false })
  q.orders = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Orders by region', query: 'select 1', tags: ['sales', 'weekly'], schedule: { interval: 3600 } })
  q.churn = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Customer churn', query: 'select 2', tags: ['sales'] })
  q.revenue = await newQuery(f.cleo, { data_source_id: f.warehouse, name: 'Revenue', query: 'select 3', tags: ['finance'], schedule: { interval: 86400, time: '00:15' } })
  q.digest = await newQuery(f.cleo, {
    data_source_id: f.warehouse, name: 'Weekly digest', query: 'select 4', schedule: { interval: 604800, time: '09:30', day_of_week: 'Monday' },
  })
  q.secret = await newQuery(f.admin, { data_source_id: f.shared, name: 'Old secret', query: 'select 5' })
  for (const [client, query] of [[f.bo, q.orders], [f.cleo, q.revenue], [f.cleo, q.digest]] as const) await publish(client, query)
  await f.admin.request('DELETE', `/api/queries/${q.secret.id}`)
  for (const [i, query] of [q.orders, q.churn, q.revenue, q.digest, q.secret].entries()) {
    await f.t.db.sql`update queries set created_at = ${`2024-03-0${i + 1}T08:3${i}:00Z`} where id = ${query.id}`
  }
  const resultId = await storeResult(f.t, f.warehouse, 'orders-hash', { retrievedAt: RAN_AT.toISOString() })
  await f.t.db.sql`update queries set latest_query_data_id = ${resultId} where id = ${q.orders.id}`
})
afterAll(() => f.t.close())

describe('who may open the lists', () => {
  it.each(['/queries', '/queries/my', '/queries/favorites', '/queries/archive?q=old'])('sends an anonymous visitor of %s to sign in', async (path) => {
    const res = await new Client(f.t.app).get(path)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`)
  })

  it('refuses someone without view_query', async () => {
    const sql = f.t.db.sql
    const { id } = await addUser(f.t, { name: 'Dot', email: 'dot@example.com', password: 'dot-password' })
    const [org] = await sql<{ id: number }[]>`select id from organizations`
    const [group] = await sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Dashboards only', ${['list_dashboards']}) returning id`
    await sql`update user_groups set group_id = ${group.id} where user_id = ${id}`
    const { client } = await signInAs(f.t.app, 'dot@example.com', 'dot-password')
    const { status, html } = await page(client, '/queries')
    expect(status).toBe(403)
    expect(html).toContain(FORBIDDEN)
  })
})

describe('/queries', () => {
  it('lists every visible query newest first, with the sidebar, the search box, the tags and one island', async () => {
    const { status, html } = await page(f.bo, '/queries')
    expect(status).toBe(200)
    expect(html).toContain('<title>Queries | Sightline</title>')
    expect(html).toMatch(/<h1[^>]*>Queries<\/h1>/)
    expect(rowNames(html)).toEqual(['Weekly digest', 'Revenue', 'Customer churn', 'Orders by region'])
    const sidebar = /<nav aria-label="Query lists"[^>]*>(.*?)<\/nav>/s.exec(html)![1]
    expect([...sidebar.matchAll(/href="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[2], m[1]])).toEqual([
      ['All Queries', '/queries'], ['My Queries', '/queries/my'], ['Favorites', '/queries/favorites'], ['Archived', '/queries/archive'],
    ])
    expect(sidebar).toMatch(/href="\/queries" aria-current="page"/)
    expect(html).toMatch(/<form role="search" class="[^"]*" action="\/queries" method="get">/)
    expect(html).toMatch(/<input id="query-search" type="search" placeholder="Search Queries..."[^>]* name="q" value=""\/>/)
    for (const [tag, count] of [['finance', 1], ['sales', 2], ['weekly', 1]] as const) {
      expect(html).toContain(`aria-label="${tag}, ${count === 1 ? '1 query' : `${count} queries`}"`)
    }
    expect(islandsOf(html)).toEqual([...shellIslands(), 'QueryListControls'].sort())
    const props = islandProps(html, 'QueryListControls') as { items: Record<string, unknown>[] }
    expect(Object.keys(props.items[0])).not.toContain('query') // no query text or API key in the page
    expect(Object.keys(props.items[0])).not.toContain('api_key')
  })

  it('labels drafts and archived queries, shows tags, owners, times and schedules', async () => {
    const { html } = await page(f.bo, '/queries')
    expect(rowOf(html, q.churn.id)).toContain('>Unpublished</span>')
    expect(rowOf(html, q.orders.id)).not.toContain('Unpublished')
    expect(rowOf(html, q.orders.id)).toMatch(/>sales<\/span>.*>weekly<\/span>/s)
    expect(rowOf(html, q.orders.id)).toContain('>Every 1 hour</td>')
    expect(rowOf(html, q.revenue.id)).toContain('title="Every day at 00:15 UTC">Every day at 00:15</td>')
    expect(rowOf(html, q.digest.id)).toContain('>Every week on Monday at 09:30</td>')
    expect(rowOf(html, q.churn.id)).toContain('>Never</td>')
    const ran = RAN_AT.toISOString()
    const absolute = `${ran.slice(8, 10)}/${ran.slice(5, 7)}/${ran.slice(2, 4)} ${ran.slice(11, 16)}` // the default DD/MM/YY HH:mm
    expect(rowOf(html, q.orders.id)).toContain(`<time dateTime="${ran}" title="${absolute}">2 hours ago</time>`)
    expect(rowOf(html, q.revenue.id)).toContain('<time dateTime="2024-03-03T08:32:00.000Z">03/03/24 08:32</time>')
    expect(rowOf(html, q.revenue.id)).toContain('>Cleo</span>')
    // without script the stars show the state but cannot be pressed
    expect(rowOf(html, q.orders.id)).toMatch(/<button type="button" aria-pressed="false" aria-label="Favorite Orders by region" disabled=""/)
    const archive = await page(f.admin, '/queries/archive')
    expect(rowNames(archive.html)).toEqual(['Old secret'])
    expect(rowOf(archive.html, q.secret.id)).toContain('>Archived</span>')
  })

  it('sorts by the column headers, marking the current one, the first click ascending for names', async () => {
    let { html } = await page(f.bo, '/queries')
    expect(html).toMatch(/aria-sort="descending"><a href="\/queries\?order=created_at"[^>]*aria-label="Sort by Created At"/)
    expect(html).toContain('href="/queries?order=name"')
    expect(html).toContain('href="/queries?order=-executed_at"')
    ;({ html } = await page(f.bo, '/queries?order=name'))
    expect(rowNames(html)).toEqual(['Customer churn', 'Orders by region', 'Revenue', 'Weekly digest'])
    expect(html).toMatch(/aria-sort="ascending"><a href="\/queries\?order=-name"/)
    ;({ html } = await page(f.bo, '/queries?order=-executed_at'))
    expect(rowNames(html)[0]).toBe('Orders by region') // never-run queries go last
    ;({ html } = await page(f.bo, '/queries?order=nonsense'))
    expect(rowNames(html)).toEqual(['Weekly digest', 'Revenue', 'Customer churn', 'Orders by region'])
  })

  it('filters by tags, each link adding or removing its tag, and keeps the search in every link', async () => {
    let { html } = await page(f.bo, '/queries?tags=sales')
    expect(rowNames(html)).toEqual(['Customer churn', 'Orders by region'])
    expect(html).toMatch(/<a href="\/queries" role="checkbox" aria-checked="true" aria-label="sales, 2 queries"/)
    expect(html).toMatch(/<a href="\/queries\?tags=sales&amp;tags=weekly" role="checkbox" aria-checked="false"/)
    ;({ html } = await page(f.bo, '/queries?tags=sales&tags=weekly'))
    expect(rowNames(html)).toEqual(['Orders by region'])
    ;({ html } = await page(f.bo, '/queries?q=orders&tags=sales'))
    expect(rowNames(html)).toEqual(['Orders by region'])
    expect(html).toContain('value="orders"')
    expect(html).toContain('<input type="hidden" name="tags" value="sales"/>')
    expect(html).toContain('href="/queries?q=orders&amp;tags=sales&amp;order=name"')
    expect(html).toContain('href="/queries?q=orders"') // untick sales
  })

  it('searches with ?q=, leaving the order to the search rank', async () => {
    const { html } = await page(f.bo, '/queries?q=REVEN')
    expect(rowNames(html)).toEqual(['Revenue'])
    expect(html).not.toContain('aria-sort=')
  })

  it('pages 20 at a time by default, with 5, 10, 20, 50 and 100 to choose from, and no paginator while 5 fit', async () => {
    let { html } = await page(f.bo, '/queries')
    expect(html).not.toContain('aria-label="Pagination"') // 4 queries
    for (let i = 1; i <= 19; i++) await newQuery(f.bo, { data_source_id: f.warehouse, name: `Filler ${String(i).padStart(2, '0')}`, query: `select ${i}` })
    ;({ html } = await page(f.bo, '/queries'))
    expect(rowNames(html)).toHaveLength(20)
    expect(html).toContain('1–20 of 23')
    expect(html).toMatch(/<a href="\/queries\?page=2" [^>]*rel="next">Next<\/a>/)
    for (const size of [5, 10, 50, 100]) expect(html).toContain(`href="/queries?page_size=${size}"`)
    expect(html).toMatch(/href="\/queries" aria-current="true"[^>]*>20<\/a>/)
    ;({ html } = await page(f.bo, '/queries?page=2'))
    expect(rowNames(html)).toEqual(['Revenue', 'Customer churn', 'Orders by region'])
    expect(html).toContain('21–23 of 23')
    ;({ html } = await page(f.bo, '/queries?page_size=5&page=3&order=name'))
    expect(rowNames(html)).toEqual(['Filler 10', 'Filler 11', 'Filler 12', 'Filler 13', 'Filler 14'])
    expect(html).toMatch(/<span [^>]*aria-current="page" aria-label="Page 3">3<\/span>/)
    expect(html).toContain('href="/queries?order=name&amp;page=4&amp;page_size=5"')
    ;({ html } = await page(f.bo, '/queries?page_size=7'))
    expect(rowNames(html)).toHaveLength(20) // not one of the sizes: the default
  })

  it('sends a page past the end back to the first page', async () => {
    const res = await f.bo.get('/queries/my?q=orders&page=9')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/queries/my?q=orders')
  })
})

describe('the other lists and their empty states', () => {
  it('lists the caller\'s own queries on /queries/my', async () => {
    const { html } = await page(f.cleo, '/queries/my')
    expect(html).toContain('<title>My Queries | Sightline</title>')
    expect(rowNames(html)).toEqual(['Weekly digest', 'Revenue'])
    expect(html).toMatch(/href="\/queries\/my" aria-current="page"/)
  })

  it('lists favorites once starred', async () => {
    let { html } = await page(f.cleo, '/queries/favorites')
    expect(mainOf(html)).toContain('Mark queries as Favorite to list them here.')
    await f.cleo.post(`/api/queries/${q.orders.id}/favorite`)
    ;({ html } = await page(f.cleo, '/queries/favorites'))
    expect(rowNames(html)).toEqual(['Orders by region'])
    expect(rowOf(html, q.orders.id)).toContain('aria-pressed="true"')
  })

  it('says where archived queries go', async () => {
    const { html } = await page(f.bo, '/queries/archive')
    expect(rowNames(html)).toEqual([])
    expect(mainOf(html)).toContain('Archived queries will be listed here.')
  })

  it('invites a first query, linking to the editor only for those who may create one', async () => {
    let { html } = await page(f.admin, '/queries/my')
    expect(mainOf(html)).toContain('<a class="font-medium text-indigo-600 hover:underline dark:text-indigo-400" href="/queries/new">Create your first query!</a>')
    ;({ html } = await page(f.lou, '/queries/my'))
    expect(mainOf(html)).toContain('Create your first query!')
    expect(mainOf(html)).not.toContain('href="/queries/new"')
  })

  it('says when a search or a tag finds nothing', async () => {
    let { html } = await page(f.bo, '/queries?q=zzzz')
    expect(mainOf(html)).toContain('Sorry, we couldn&#x27;t find anything.')
    ;({ html } = await page(f.bo, '/queries/favorites?tags=nope'))
    expect(mainOf(html)).toMatch(/No queries found tagged with <span[^>]*>nope<\/span>/)
  })
})

describe('the New Query button', () => {
  it('shows for holders of create_query and admins, not for others', async () => {
    const button = /<a href="\/queries\/new" class="inline-flex[^"]*bg-indigo-600[^"]*">.*?New Query<\/a>/s
    expect(mainOf((await page(f.bo, '/queries')).html)).toMatch(button)
    expect(mainOf((await page(f.admin, '/queries/archive')).html)).toMatch(button)
    const lou = await page(f.lou, '/queries')
    expect(lou.status).toBe(200)
    expect(mainOf(lou.html)).not.toMatch(button)
  })
})
