import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queryFixture, type QueryFixture } from './queries-fixture.ts'

/**
 * Who is listed what, for a mix of sources, groups, restricted and text widgets, drafts and deleted sources: each
 * caller's dashboards, queries and alerts, through the API, are exactly what the visibility rules give when they are
 * written out in full as SQL (the rules of reference §7.1 and §2.3, one probe per row); the lists compute them another
 * way, so any difference in who sees what shows here.
 */
let f: QueryFixture
let org: number

const PEOPLE = ['admin', 'bo', 'cleo', 'vi', 'lou'] as const
type Person = (typeof PEOPLE)[number]

async function json(pending: Promise<Response>) {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

/** The caller's groups and whether they are an admin, as the rules read them. */
async function viewer(person: Person) {
  const [row] = await f.t.db.sql<{ groups: number[]; admin: boolean }[]>`
    select array_agg(g.id) as groups, bool_or('admin' = any(g.permissions)) as admin
      from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = ${f.ids[person]}`
  return { userId: f.ids[person], groups: row.groups.map(Number), admin: row.admin }
}

/** The queries a person may see, written out: any group of theirs grants the source, or their own without a source. */
async function expectedQueries(person: Person): Promise<number[]> {
  const v = await viewer(person)
  const rows = await f.t.db.sql<{ id: number }[]>`
    select q.id from queries q where q.org_id = ${org} and not q.is_archived and (${v.admin} or exists (
      select 1 from data_source_groups g where g.data_source_id = q.data_source_id and g.group_id = any(${v.groups}::bigint[]))
      or (q.data_source_id is null and q.user_id = ${v.userId}))
    order by q.id`
  return rows.map((r) => Number(r.id))
}

/** The dashboards a person is listed, written out: theirs, or published and showing a widget they can see or none at all. */
async function expectedDashboards(person: Person): Promise<number[]> {
  const v = await viewer(person)
  const rows = await f.t.db.sql<{ id: number }[]>`
    select d.id from dashboards d where d.org_id = ${org} and not d.is_archived and (d.user_id = ${v.userId} or (not d.is_draft and (
      ${v.admin}
      or exists (
        select 1 from widgets w
        join visualizations z on z.id = w.visualization_id
        join queries q on q.id = z.query_id
        join data_source_groups g on g.data_source_id = q.data_source_id
        where w.dashboard_id = d.id and g.group_id = any(${v.groups}::bigint[]))
      or not exists (select 1 from widgets w where w.dashboard_id = d.id and w.visualization_id is not null))))
    order by d.id`
  return rows.map((r) => Number(r.id))
}

/** The alerts a person may see, newest first: those on a query they may see. */
async function expectedAlerts(person: Person): Promise<number[]> {
  const queries = await expectedQueries(person)
  const rows = await f.t.db.sql<{ id: number }[]>`
    select id from alerts where query_id = any(${queries}::bigint[]) order by created_at desc, id desc`
  return rows.map((r) => Number(r.id))
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b)

beforeAll(async () => {
  f = await queryFixture()
  const sql = f.t.db.sql
  ;[{ id: org }] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
  // one more source, for the finance group only, then deleted for some queries (their source becomes null)
  const [finance] = await sql<{ id: number }[]>`
    insert into data_sources (org_id, name, type, options) values (${org}, 'Finance', 'pg', '{}') returning id`
  const [financeGroup] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions) select ${org}, 'Finance', permissions from groups where name = 'default' returning id`
  await sql`insert into data_source_groups (data_source_id, group_id) values (${finance.id}, ${financeGroup.id})`
  await sql`insert into user_groups (user_id, group_id) values (${f.ids.cleo}, ${financeGroup.id})`
  const sources = [f.warehouse, f.shared, finance.id, null]
  const owners = [f.ids.admin, f.ids.bo, f.ids.cleo, f.ids.vi, f.ids.lou]
  // 40 queries: every source (or none) with every owner, some archived
  await sql`
    insert into queries (org_id, data_source_id, user_id, name, query, api_key_hash, is_archived)
    select ${org}, (${sources}::bigint[])[1 + g % 4], (${owners}::bigint[])[1 + (g / 4) % 5], 'Mix ' || g, 'select ' || g,
      sha256(('mix ' || g)::bytea), g % 11 = 0
    from generate_series(0, 39) g`
  await sql`insert into visualizations (query_id, type, name) select id, 'TABLE', 'Table' from queries where name like 'Mix %'`
  // 60 dashboards with up to three widgets each, on any of those visualizations, a text box or nothing
  await sql`
    insert into dashboards (org_id, user_id, name, slug, is_draft, is_archived)
    select ${org}, (${owners}::bigint[])[1 + g % 5], 'Board ' || g, 'board-' || g, g % 6 = 0, g % 13 = 0
    from generate_series(0, 59) g`
  await sql`
    insert into widgets (dashboard_id, visualization_id, text)
    select d.id, case when (d.id + k) % 7 = 0 then null else v.ids[1 + (d.id * 3 + k * 17) % cardinality(v.ids)] end, ''
    from (select array_agg(z.id order by z.id) as ids from visualizations z join queries q on q.id = z.query_id where q.name like 'Mix %') v,
      dashboards d cross join generate_series(1, 3) k
    where d.name like 'Board %' and k <= d.id % 4`
  await sql`update queries set data_source_id = null where data_source_id = ${finance.id} and id % 2 = 0`
  // more alerts than the list reads at a time, on queries of every source
  await sql`
    insert into alerts (org_id, user_id, query_id, name, options, created_at)
    select ${org}, ${f.ids.admin}, q.ids[1 + g % cardinality(q.ids)], 'Watch ' || g, '{"column": "n", "op": ">", "value": 1}',
      now() - (g % 300) * interval '1 second'
    from (select array_agg(id order by id) as ids from queries where name like 'Mix %' and not is_archived) q, generate_series(1, 1300) g`
})
afterAll(() => f.t.close())

describe('who is listed what', () => {
  it.each(['admin', 'bo', 'cleo', 'vi'] as const)('%s sees exactly the dashboards the rules give', async (person) => {
    const page = await json(f[person].get('/api/dashboards?page_size=250'))
    const expected = await expectedDashboards(person)
    expect(expected.length).toBeGreaterThan(0)
    expect(page.count).toBe(expected.length)
    expect(sorted(page.results.map((d: { id: number }) => d.id))).toEqual(expected)
  })

  it.each(PEOPLE)('%s sees exactly the queries the rules give', async (person) => {
    const page = await json(f[person].get('/api/queries?page_size=250'))
    const expected = await expectedQueries(person)
    expect(page.count).toBe(expected.length)
    expect(sorted(page.results.map((q: { id: number }) => q.id))).toEqual(expected)
  })

  it.each(['admin', 'bo', 'cleo', 'vi'] as const)('%s gets every alert they may see once, newest first, as one JSON array', async (person) => {
    const res = await f[person].get('/api/alerts')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const alerts = JSON.parse(await res.text()) as { id: number; query: { id: number } | null; user: { id: number } | null }[]
    expect(alerts.map((a) => a.id)).toEqual(await expectedAlerts(person))
    expect(alerts.every((a) => a.query?.id && a.user?.id === f.ids.admin)).toBe(true)
  })

  it('the alerts page counts and pages the same alerts, newest first (the oldest first among equals)', async () => {
    const rows = await f.t.db.sql<{ id: number }[]>`
      select id from alerts where id = any(${await expectedAlerts('vi')}::bigint[]) order by created_at desc, id asc`
    const expected = rows.map((r) => Number(r.id))
    const res = await f.vi.get('/alerts?page=2&page_size=100')
    const html = await res.text()
    const shown = [...html.matchAll(/data-alert-id="(\d+)"/g)].map((m) => Number(m[1]))
    expect(shown).toEqual(expected.slice(100, 200))
  })
})
