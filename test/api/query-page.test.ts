import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, signInAs } from '../helpers/app.ts'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND, shellIslands } from '../helpers/pages.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from './queries-fixture.ts'

/**
 * The read-only query page /queries/{id}: who may open it, what the QueryPage island is given (the query without
 * its API key, its visualizations, the caller's permissions, the configured refresh intervals) and what the HTML shows.
 */
let f: QueryFixture
let bosQuery: QueryJson
let sharedQuery: QueryJson

const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: (await res.text()).replaceAll('<!-- -->', '') }
}
type Props = {
  query: Record<string, unknown> & { id: number; name: string; version: number }
  visualizations: { id: number; type: string; name: string }[]
  permissions: { canEdit: boolean; canSchedule: boolean; canFork: boolean; canExecute: boolean; isOwnerOrAdmin: boolean }
  refreshIntervals: number[]
  autoPublishNamedQueries: boolean
}
const pageProps = (html: string) => islandProps(html, 'QueryPage') as unknown as Props

beforeAll(async () => {
  f = await queryFixture()
  bosQuery = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Orders', query: 'select 1 as n', tags: ['sales'] })
  sharedQuery = await newQuery(f.admin, { data_source_id: f.shared, name: 'Shared numbers', query: 'select 2 as n' })
})
afterAll(() => f.t.close())

describe('/queries/{id}', () => {
  it('shows the owner the header, the Table tab and every control, with the island’s data', async () => {
    const { status, html } = await page(f.bo, `/queries/${bosQuery.id}`)
    expect(status).toBe(200)
    expect(islandsOf(html)).toEqual([...shellIslands(), 'QueryPage'].sort())
    expect(html).toContain('<title>Orders')
    expect(html).toContain('value="Orders"')
    expect(html).toContain('role="tab"')
    expect(html).toContain('>Table</button>')
    expect(html).toContain('Edit Source')
    expect(html).toContain('>Publish</button>')
    expect(html).toContain('Refresh Now')
    const props = pageProps(html)
    expect(props.query).toMatchObject({ id: bosQuery.id, name: 'Orders', version: bosQuery.version, is_draft: true, tags: ['sales'] })
    expect(props.visualizations).toEqual([{ id: expect.any(Number), type: 'TABLE', name: 'Table', options: {} }])
    expect(props.permissions).toEqual({ canEdit: true, canSchedule: true, canFork: true, canExecute: true, isOwnerOrAdmin: true })
    expect(props.refreshIntervals).toContain(86400)
    expect(props.autoPublishNamedQueries).toBe(true)
  })

  it('never puts the API key in the page: the Show API Key dialog fetches it', async () => {
    for (const client of [f.bo, f.cleo]) {
      const { html } = await page(client, `/queries/${bosQuery.id}`)
      expect(html).not.toContain(bosQuery.api_key)
      expect(pageProps(html).query).not.toHaveProperty('api_key')
    }
  })

  it('is read-only for a colleague: no Publish, no schedule, no Archive; View Source instead of Edit Source', async () => {
    const { status, html } = await page(f.cleo, `/queries/${bosQuery.id}`)
    expect(status).toBe(200)
    expect(html).not.toContain('>Publish</button>')
    expect(html).toContain('View Source')
    expect(pageProps(html).permissions).toEqual({ canEdit: false, canSchedule: false, canFork: true, canExecute: true, isOwnerOrAdmin: false })
  })

  it('lets a view-only user see a query on a view-only source, without fork or edit', async () => {
    const { status, html } = await page(f.vi, `/queries/${sharedQuery.id}`)
    expect(status).toBe(200)
    expect(pageProps(html).permissions).toMatchObject({ canEdit: false, canFork: false, canSchedule: false })
  })

  it('gives an editor without schedule_query no schedule dialog', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Lou’s', query: 'select 4' })
    await f.t.db.sql`update queries set user_id = ${f.ids.lou} where id = ${q.id}`
    const props = pageProps((await page(f.lou, `/queries/${q.id}`)).html)
    expect(props.permissions).toMatchObject({ canEdit: true, canSchedule: false })
  })

  it('is 404 for a query on a source the user has no access to, and for one that does not exist', async () => {
    for (const path of [`/queries/${sharedQuery.id}`, '/queries/999999']) {
      const { status, html } = await page(f.bo, path)
      expect(status).toBe(404)
      expect(html).toContain(NOT_FOUND)
    }
  })

  it('is 403 for someone without view_query', async () => {
    const sql = f.t.db.sql
    const { id } = await addUser(f.t, { name: 'Dot', email: 'dot@example.com', password: 'dot-password' })
    const [org] = await sql<{ id: number }[]>`select id from organizations`
    const [group] = await sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Dashboards only', ${['list_dashboards']}) returning id`
    await sql`update user_groups set group_id = ${group.id} where user_id = ${id}`
    const { client } = await signInAs(f.t.app, 'dot@example.com', 'dot-password')
    const { status, html } = await page(client, `/queries/${bosQuery.id}`)
    expect(status).toBe(403)
    expect(html).toContain(FORBIDDEN)
  })

  it('sends an anonymous visitor to sign in', async () => {
    const res = await new Client(f.t.app).get(`/queries/${bosQuery.id}`)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(`/queries/${bosQuery.id}`)}`)
  })

  it('marks an archived query and offers no changes', async () => {
    const q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Old', query: 'select 3' })
    expect((await f.bo.request('DELETE', `/api/queries/${q.id}`)).status).toBe(200)
    const { status, html } = await page(f.bo, `/queries/${q.id}`)
    expect(status).toBe(200)
    expect(html).toContain('This query is archived')
    expect(pageProps(html).permissions).toMatchObject({ canEdit: false, canSchedule: false, canExecute: false })
  })

  it('leaves the list pages where they were: /queries/my is still the list', async () => {
    const { status, html } = await page(f.bo, '/queries/my')
    expect(status).toBe(200)
    expect(islandsOf(html)).not.toContain('QueryPage')
  })
})
