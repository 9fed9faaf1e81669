import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../helpers/app.ts'
import { queryFixture, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * A member's lists are filtered on the sources of their groups, looked up once per request, over thousands of
 * queries and hundreds of dashboards. Whatever the lists do to stay fast, what a member is shown must stay exactly
 * what their groups allow: bo reads `warehouse` only, vi reads `shared` view-only as well, and nobody but the admin
 * may see a dashboard whose only chart is on a source outside their groups.
 */
let f: QueryFixture
const QUERIES = 3000
const DASHBOARDS = 600
const names = { forbidden: 'Forbidden board', mixed: 'Mixed board', text: 'Text board', boOrphan: 'Bo orphan', cleoOrphan: 'Cleo orphan' }

beforeAll(async () => {
  f = await queryFixture()
  const sql = f.t.db.sql
  const [{ id: orgId }] = await sql<{ id: number }[]>`select id from organizations where slug = 'default'`
  const sources = sql.array([f.warehouse, f.shared])
  // half the queries on each source, a visualization on each, and alerts on the first of them
  await sql`
    insert into queries (org_id, data_source_id, user_id, name, query, query_hash, api_key_hash, tags)
    select ${orgId}, (${sources}::bigint[])[1 + g % 2], ${f.ids.admin}, 'Growth ' || g, 'select ' || g, md5(g::text),
           sha256(('key ' || g)::bytea), array['source ' || (1 + g % 2)]
      from generate_series(1, ${QUERIES}) g`
  await sql`insert into visualizations (query_id, type, name) select id, 'TABLE', 'Table' from queries where name like 'Growth %'`
  await sql`
    insert into alerts (org_id, user_id, query_id, name, options, state)
    select ${orgId}, ${f.ids.admin}, id, 'Alert on ' || name, '{"column": "x", "op": ">", "value": 1}', 'ok'
      from queries where name like 'Growth %' order by id limit 400`
  // queries whose source was deleted: only their owner (and the admin) sees them
  await sql`
    insert into queries (org_id, data_source_id, user_id, name, query, query_hash, api_key_hash) values
      (${orgId}, null, ${f.ids.bo}, ${names.boOrphan}, 'select 1', md5('bo'), sha256('bo'::bytea)),
      (${orgId}, null, ${f.ids.cleo}, ${names.cleoOrphan}, 'select 1', md5('cleo'), sha256('cleo'::bytea))`
  // published dashboards, each with widgets on visualizations of one source, or of both, or text only
  const boards = async (name: string, sourceIds: number[], count: number, tags: string[]) => {
    await sql`
      with d as (
        insert into dashboards (org_id, user_id, name, slug, is_draft, tags)
        select ${orgId}, ${f.ids.admin}, ${name} || ' ' || g, 'board-' || md5(${name} || g), false, ${tags}::text[]
          from generate_series(1, ${count}) g returning id)
      insert into widgets (dashboard_id, visualization_id, text, options)
      select d.id, v.id, '', '{}' from d
        cross join lateral (
          select z.id from visualizations z join queries q on q.id = z.query_id
           where q.data_source_id = any(${sql.array(sourceIds)}::bigint[]) and q.name like 'Growth %'
           order by (z.id * 7919 + d.id) % 1000 limit ${sourceIds.length * 2}) v`
  }
  await boards('Warehouse board', [f.warehouse], DASHBOARDS / 2, ['warehouse'])
  await boards(names.forbidden, [f.shared], DASHBOARDS / 2, ['forbidden'])
  await boards(names.mixed, [f.warehouse, f.shared], 5, [])
  await sql`
    with d as (insert into dashboards (org_id, user_id, name, slug, is_draft) values (${orgId}, ${f.ids.admin}, ${names.text}, 'text-board', false) returning id)
    insert into widgets (dashboard_id, visualization_id, text, options) select id, null, 'Read me', '{}' from d`
  await sql`analyze`
})
afterAll(() => f.t.close())

/** Every page of a paged list, 250 at a time. */
async function everything<T>(client: Client, path: string): Promise<{ count: number; results: T[] }> {
  const results: T[] = []
  let count = 0
  for (let page = 1; page === 1 || results.length < count; page++) {
    const res = await client.get(`${path}${path.includes('?') ? '&' : '?'}page_size=250&page=${page}`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { count: number; results: T[] }
    count = body.count
    results.push(...body.results)
    if (!body.results.length) break
  }
  return { count, results }
}

describe("a member's dashboard list at scale", () => {
  it('never lists a dashboard whose only charts are on a source outside their groups', async () => {
    const { count, results } = await everything<{ name: string }>(f.bo, '/api/dashboards')
    expect(results).toHaveLength(count)
    expect(results.filter((d) => d.name.startsWith(names.forbidden))).toEqual([])
    expect(count).toBe(DASHBOARDS / 2 + 5 + 1)
    expect(results.filter((d) => d.name.startsWith(names.mixed))).toHaveLength(5)
    expect(results.some((d) => d.name === names.text)).toBe(true)
    expect((await (await f.bo.get('/api/dashboards?q=forbidden')).json()).count).toBe(0)
  })

  it('shows them to a member whose group reads that source, even view-only, and to the admin', async () => {
    expect((await everything(f.vi, '/api/dashboards')).count).toBe(DASHBOARDS + 5 + 1)
    expect((await everything(f.admin, '/api/dashboards')).count).toBe(DASHBOARDS + 5 + 1)
  })

  it('keeps them off the page, its search and its tags', async () => {
    const page = await (await f.bo.get('/dashboards?q=board&page_size=100')).text()
    expect(page).not.toContain(names.forbidden)
    expect(await (await f.bo.get('/dashboards?q=forbidden')).text()).not.toContain(names.forbidden)
    const { tags } = (await (await f.bo.get('/api/dashboards/tags')).json()) as { tags: { name: string; count: number }[] }
    expect(tags).toEqual([{ name: 'warehouse', count: DASHBOARDS / 2 }])
  })
})

describe("a member's query lists at scale", () => {
  it('hold every query on their sources and their own source-less ones, nothing else', async () => {
    const { count, results } = await everything<{ name: string; data_source_id: number | null }>(f.bo, '/api/queries')
    expect(results).toHaveLength(count)
    expect(results.filter((q) => q.data_source_id === f.shared)).toEqual([])
    expect(results.filter((q) => q.name.startsWith('Growth '))).toHaveLength(QUERIES / 2)
    expect(results.map((q) => q.name)).toContain(names.boOrphan)
    expect(results.map((q) => q.name)).not.toContain(names.cleoOrphan)
    const search = (await (await f.bo.get('/api/queries?q=orphan')).json()) as { results: { name: string }[] }
    expect(search.results.map((q) => q.name)).toEqual([names.boOrphan])
    const { tags } = (await (await f.bo.get('/api/queries/tags')).json()) as { tags: { name: string }[] }
    expect(tags.map((t) => t.name)).toEqual(['source 1'])
  })

  it('count what they list on the home page', async () => {
    const home = await (await f.bo.get('/api/organization/status')).json() as { object_counters: { queries: number; alerts: number } }
    expect(home.object_counters.queries).toBe(QUERIES / 2 + 1)
    expect(home.object_counters.alerts).toBe(200)
  })

  it('list a member with no source-less query of their own only the queries of their sources', async () => {
    const { count, results } = await everything<{ data_source_id: number | null }>(f.vi, '/api/queries')
    expect(count).toBe(QUERIES)
    expect(results.every((q) => q.data_source_id === f.warehouse || q.data_source_id === f.shared)).toBe(true)
  })
})

describe("a member's alerts at scale", () => {
  it('are only those on queries of their sources, in the list and on the page', async () => {
    const alerts = (await (await f.bo.get('/api/alerts')).json()) as { query: { data_source_id: number } }[]
    expect(alerts).toHaveLength(200)
    expect(alerts.filter((a) => a.query.data_source_id !== f.warehouse)).toEqual([])
    expect(await (await f.bo.get('/alerts')).text()).toMatch(/200 alerts/)
  })
})

// last: it adds a query on a source of their own
describe("a member's dashboard list as charts come and go", () => {
  it('follows a chart added, its query moved to another source, and the chart removed, at once', async () => {
    const listed = async () => ((await (await f.bo.get('/api/dashboards?q=Moving')).json()) as { count: number }).count
    const board = (await (await f.admin.post('/api/dashboards', { name: 'Moving board' })).json()) as { id: number }
    await f.admin.post(`/api/dashboards/${board.id}`, { is_draft: false })
    expect(await listed()).toBe(1)

    const secret = (await (await f.admin.post('/api/queries', { data_source_id: f.shared, name: 'Moving query', query: 'select 1' })).json()) as { id: number }
    const chart = (await (await f.admin.post('/api/visualizations', { query_id: secret.id, type: 'TABLE', name: 'Moving table', options: {} })).json()) as { id: number }
    const widget = (await (await f.admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: chart.id, options: {} })).json()) as { id: number }
    expect(await listed()).toBe(0)

    expect((await f.admin.post(`/api/queries/${secret.id}`, { data_source_id: f.warehouse })).status).toBe(200)
    expect(await listed()).toBe(1)
    expect((await f.admin.post(`/api/queries/${secret.id}`, { data_source_id: f.shared })).status).toBe(200)
    expect(await listed()).toBe(0)

    expect((await f.admin.request('DELETE', `/api/widgets/${widget.id}`)).ok).toBe(true)
    expect(await listed()).toBe(1)
    await f.admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: chart.id, options: {} })
    expect(await listed()).toBe(0)
    expect((await f.admin.request('DELETE', `/api/visualizations/${chart.id}`)).ok).toBe(true)
    expect(await listed()).toBe(1)
  })

  it("keeps a chart whose query lost its source from counting as no chart at all, and lists it again beside a readable one", async () => {
    const listed = async () => ((await (await f.bo.get('/api/dashboards?q=Orphaned')).json()) as { count: number }).count
    const tags = async () => ((await (await f.bo.get('/api/dashboards/tags')).json()) as { tags: { name: string }[] }).tags.map((t) => t.name)
    const board = (await (await f.admin.post('/api/dashboards', { name: 'Orphaned board' })).json()) as { id: number }
    await f.admin.post(`/api/dashboards/${board.id}`, { is_draft: false, tags: ['orphaned'] })
    const query = async (name: string) => {
      const q = (await (await f.admin.post('/api/queries', { data_source_id: f.warehouse, name, query: 'select 1' })).json()) as { id: number }
      const chart = (await (await f.admin.post('/api/visualizations', { query_id: q.id, type: 'TABLE', name, options: {} })).json()) as { id: number }
      await f.admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: chart.id, options: {} })
      return q.id
    }
    const lost = await query('Losing its source')
    expect(await listed()).toBe(1)
    // as when its source is deleted (on delete set null)
    await f.t.db.sql`update queries set data_source_id = null where id = ${lost}`
    expect(await listed()).toBe(0)
    expect(await tags()).not.toContain('orphaned')
    await f.admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: null, text: 'Read me', options: {} })
    expect(await listed()).toBe(0)
    await query('Still on the warehouse')
    expect(await listed()).toBe(1)
    expect(await tags()).toContain('orphaned')
    const page = (await (await f.bo.get('/api/dashboards?page_size=5')).json()) as { results: { name: string }[] }
    expect(page.results[0].name).toBe('Orphaned board')
  })
})
