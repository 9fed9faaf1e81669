import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, pgOptionsFor, signInAs } from '../helpers/app.ts'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND, shellIslands } from '../helpers/pages.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from './queries-fixture.ts'

/**
 * The query editor's pages (/queries/new, /queries/{id}/source): who may open them, what the QueryEditor island is
 * given (the query, the sources the user may see and nothing more about them, the permissions, the org's formats).
 */
let f: QueryFixture
let bosQuery: QueryJson
let sharedQuery: QueryJson

const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: (await res.text()).replaceAll('<!-- -->', '') }
}
type Props = {
  query: { id: number | null; name: string; query: string; data_source_id: number | null; version: number | null }
  dataSources: Record<string, unknown>[]
  canEdit: boolean
  canExecute: boolean
  formats: { date: string; time: string }
}
const editorProps = (html: string) => islandProps(html, 'QueryEditor') as unknown as Props

beforeAll(async () => {
  f = await queryFixture()
  bosQuery = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Orders', query: 'select 1 as n' })
  sharedQuery = await newQuery(f.admin, { data_source_id: f.shared, name: 'Shared numbers', query: 'select 2 as n' })
})
afterAll(() => f.t.close())

describe('/queries/new', () => {
  it('opens the editor with a new query on the first source the user may write for', async () => {
    const { status, html } = await page(f.bo, '/queries/new')
    expect(status).toBe(200)
    expect(islandsOf(html)).toEqual([...shellIslands(), 'QueryEditor'].sort())
    const props = editorProps(html)
    // the organization's Demo source comes first (setup creates it), then the fixture's Warehouse
    expect(props.query).toMatchObject({ id: null, name: 'New Query', query: '', data_source_id: props.dataSources[0].id, version: null })
    expect(props.canEdit).toBe(true)
    expect(props.canExecute).toBe(true)
    expect(props.formats).toEqual({ date: 'DD/MM/YY', time: 'HH:mm' })
    expect(html).toContain('<title>New Query')
  })

  it('gives the island only the sources the user can see, and of them only what the editor needs', async () => {
    const { html } = await page(f.bo, '/queries/new')
    const props = editorProps(html)
    expect(props.dataSources.map((ds) => ds.name)).toEqual(['Demo', 'Warehouse'])
    expect(props.dataSources[1]).toEqual({ id: f.warehouse, name: 'Warehouse', type: 'pg', syntax: 'sql', view_only: false, supports_auto_limit: true })
    const password = pgOptionsFor(f.t).password
    expect(html).not.toContain(password)
    expect(html).not.toContain('Shared')
  })

  it('lists a view-only source (so a query on it can be shown) but starts on one the user may write for', async () => {
    const props = editorProps((await page(f.vi, '/queries/new')).html)
    expect(props.dataSources.map((ds) => [ds.name, ds.view_only])).toEqual(expect.arrayContaining([['Warehouse', false], ['Shared', true]]))
    expect(props.dataSources.find((ds) => ds.id === props.query.data_source_id)?.view_only).toBe(false)
  })

  it('tells someone without create_query that they cannot create queries, with a way to browse them', async () => {
    const { status, html } = await page(f.lou, '/queries/new')
    expect(status).toBe(403)
    expect(html).toContain('You don&#x27;t have permission to create new queries on any of the data sources available to you.')
    expect(html).toContain('href="/queries"')
    expect(islandsOf(html)).not.toContain('QueryEditor')
  })

  it('sends an anonymous visitor to sign in', async () => {
    const res = await new Client(f.t.app).get('/queries/new')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/queries/new')}`)
  })
})

describe('/queries/{id}/source', () => {
  it('opens the owner’s query for editing, with its text and version', async () => {
    const { status, html } = await page(f.bo, `/queries/${bosQuery.id}/source`)
    expect(status).toBe(200)
    const props = editorProps(html)
    expect(props.query).toMatchObject({ id: bosQuery.id, name: 'Orders', query: 'select 1 as n', data_source_id: f.warehouse, version: bosQuery.version })
    expect(props.canEdit).toBe(true)
    expect(html).toContain('select 1 as n')
  })

  it('is read-only for a colleague who may view but not edit the query', async () => {
    const props = editorProps((await page(f.cleo, `/queries/${bosQuery.id}/source`)).html)
    expect(props.canEdit).toBe(false)
    expect(props.query.id).toBe(bosQuery.id)
  })

  it('is read-only on a view-only source, and shows that source even though it is not offered for writing', async () => {
    const { status, html } = await page(f.vi, `/queries/${sharedQuery.id}/source`)
    expect(status).toBe(200)
    const props = editorProps(html)
    expect(props.canEdit).toBe(false)
    expect(props.dataSources.find((ds) => ds.id === f.shared)).toMatchObject({ view_only: true })
  })

  it('is 404 for a query on a source the user has no access to, and for one that does not exist', async () => {
    for (const path of [`/queries/${sharedQuery.id}/source`, '/queries/999999/source']) {
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
    const { status, html } = await page(client, `/queries/${bosQuery.id}/source`)
    expect(status).toBe(403)
    expect(html).toContain(FORBIDDEN)
  })
})
