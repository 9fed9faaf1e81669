import { parseHTML } from 'linkedom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, createTestApp, setUp, signInAs, type Client, type TestApp } from '../helpers/app.ts'

// The home page as its reader sees it: which onboarding steps are ticked, and which queries are listed as favourites.
let t: TestApp
let admin: Client
let bo: Client
let demo: number
beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app) // setup also adds the Demo source, in the default group
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  demo = (await (await admin.get('/api/data_sources')).json())[0].id
})
afterAll(() => t.close())

async function home(client: Client) {
  const res = await client.get('/')
  expect(res.status).toBe(200)
  return parseHTML(await res.text()).document
}

/** Whether the onboarding step whose text is `text` is ticked (a done step is struck through). */
async function stepDone(client: Client, text: string): Promise<boolean> {
  const step = [...(await home(client)).querySelectorAll('li')].find((li) => li.textContent?.includes(text))
  if (!step) throw new Error(`no onboarding step "${text}"`)
  return !!step.querySelector('.line-through')
}

/** The favourite queries (or dashboards) the home page lists: name, link and whether it says Unpublished. */
async function favoriteQueries(client: Client, title = 'Favorite Queries') {
  const doc = await home(client)
  const section = [...doc.querySelectorAll('section')].find((s) => s.querySelector('h2')?.textContent === title)!
  return [...section.querySelectorAll('li')].map((li) => ({
    name: li.querySelector('a')!.textContent, href: li.querySelector('a')!.getAttribute('href'), unpublished: li.textContent!.includes('Unpublished'),
  }))
}

const counters = async (client: Client) => (await (await client.get('/api/organization/status')).json()).object_counters

describe('the home page counts what exists', () => {
  it('ticks "Create your first Query" once a query exists, and the counters say 1', async () => {
    expect((await counters(admin)).queries).toBe(0)
    expect(await stepDone(admin, 'Create your first Query')).toBe(false)
    expect(await stepDone(admin, 'Connect a Data Source')).toBe(true) // the Demo source

    const res = await admin.post('/api/queries', { data_source_id: demo, query: 'select 1', name: 'Revenue by region' })
    expect(res.status).toBe(200)
    expect(await counters(admin)).toEqual({ users: 2, alerts: 0, data_sources: 1, queries: 1, dashboards: 0 })
    expect(await stepDone(admin, 'Create your first Query')).toBe(true)
    expect((await counters(bo)).queries).toBe(1) // bo's group has the Demo source
  })

  it('counts an alert once one exists, for whoever may see its query', async () => {
    const [query] = await t.db.sql<{ id: number }[]>`select id from queries order by id limit 1`
    const res = await admin.post('/api/alerts', { name: 'Revenue watch', query_id: query.id, options: { column: 'x', op: '>', value: 1 } })
    expect(res.status).toBe(200)
    expect((await counters(admin)).alerts).toBe(1)
    expect((await counters(bo)).alerts).toBe(1)
  })

  it('counts only what the reader can use: a member without the source sees no source, query or alert', async () => {
    await t.db.sql`delete from data_source_groups where data_source_id = ${demo}`
    try {
      expect(await counters(bo)).toMatchObject({ data_sources: 0, queries: 0, alerts: 0 })
      expect(await stepDone(bo, 'Ask an account admin to connect a data source')).toBe(false)
      expect(await counters(admin)).toMatchObject({ data_sources: 1, queries: 1 }) // admins see every source
    } finally {
      const [group] = await t.db.sql<{ id: number }[]>`select id from groups where name = 'default'`
      await t.db.sql`insert into data_source_groups (data_source_id, group_id) values (${demo}, ${group.id})`
    }
  })
})

describe('the home page lists the reader\'s favourite queries', () => {
  it('shows a starred query, linked, marked Unpublished while a draft; only to whoever starred it', async () => {
    expect(await favoriteQueries(admin)).toEqual([])
    expect((await home(admin)).body.textContent).toContain('Favorite Queries will appear here')

    const [{ id }] = await t.db.sql<{ id: number }[]>`select id from queries where name = 'Revenue by region'`
    expect((await admin.post(`/api/queries/${id}/favorite`)).status).toBe(200)
    expect(await favoriteQueries(admin)).toEqual([{ name: 'Revenue by region', href: `/queries/${id}`, unpublished: true }])
    expect((await home(admin)).body.textContent).not.toContain('Favorite Queries will appear here')
    expect(await favoriteQueries(bo)).toEqual([])

    expect((await admin.post(`/api/queries/${id}`, { is_draft: false })).status).toBe(200)
    expect(await favoriteQueries(admin)).toEqual([{ name: 'Revenue by region', href: `/queries/${id}`, unpublished: false }])
  })

  it('lists the newest star first and forgets an unstarred or archived query, whose count goes too', async () => {
    const other = await (await admin.post('/api/queries', { data_source_id: demo, query: 'select 2', name: 'Orders per day' })).json()
    await admin.post(`/api/queries/${other.id}/favorite`)
    expect((await favoriteQueries(admin)).map((q) => q.name)).toEqual(['Orders per day', 'Revenue by region'])
    expect((await counters(admin)).queries).toBe(2)

    await admin.request('DELETE', `/api/queries/${other.id}/favorite`)
    expect((await favoriteQueries(admin)).map((q) => q.name)).toEqual(['Revenue by region'])

    const [{ id }] = await t.db.sql<{ id: number }[]>`select id from queries where name = 'Revenue by region'`
    expect((await admin.request('DELETE', `/api/queries/${id}`)).status).toBe(200) // archives it
    expect(await favoriteQueries(admin)).toEqual([])
    expect((await counters(admin)).queries).toBe(1)
  })
})

describe('the home page lists the reader\'s favourite dashboards', () => {
  it('shows a starred dashboard linked to its page, marked Unpublished while a draft, and counts dashboards', async () => {
    expect(await favoriteQueries(admin, 'Favorite Dashboards')).toEqual([])
    expect((await home(admin)).body.textContent).toContain('Favorite Dashboards will appear here')
    const board = await (await admin.post('/api/dashboards', { name: 'Daily sales' })).json()
    expect((await counters(admin)).dashboards).toBe(1)
    expect((await admin.post(`/api/dashboards/${board.id}/favorite`)).status).toBe(200)
    expect(await favoriteQueries(admin, 'Favorite Dashboards')).toEqual([{ name: 'Daily sales', href: `/dashboards/${board.id}-daily-sales`, unpublished: true }])
    expect(await favoriteQueries(bo, 'Favorite Dashboards')).toEqual([])
  })
})
