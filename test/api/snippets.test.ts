import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND } from '../helpers/pages.ts'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** Query snippets over the API (spec 2 §7, reference §7.5) and the server-rendered list (spec 2 §2, §9). */
let t: TestApp
let admin: Client
let bo: Client
let cy: Client
let viewer: Client
let outsider: Client
let boId: number
let orgId: number

const json = async (res: Response) => ({ status: res.status, body: await res.json() })
const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: (await res.text()).replaceAll('<!-- -->', ''), location: res.headers.get('location') }
}

/** A signed-in user whose only group grants exactly these permissions. */
async function userWith(name: string, permissions: string[]): Promise<Client> {
  const email = `${name.toLowerCase()}@example.com`
  const { id } = await addUser(t, { name, email, password: `${name}-password` })
  const [group] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${orgId}, ${name}, ${permissions}) returning id`
  await t.db.sql`delete from user_groups where user_id = ${id}`
  await t.db.sql`insert into user_groups (user_id, group_id) values (${id}, ${group.id})`
  return (await signInAs(t.app, email, `${name}-password`)).client
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  ;[{ id: orgId }] = await t.db.sql<{ id: number }[]>`select id from organizations`
  boId = (await addUser(t, { name: 'Bo Builder', email: 'bo@example.com', password: 'bo-password' })).id
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  await addUser(t, { name: 'Cy Colleague', email: 'cy@example.com', password: 'cy-password' })
  cy = (await signInAs(t.app, 'cy@example.com', 'cy-password')).client
  viewer = await userWith('Vi', ['view_query'])
  outsider = await userWith('Oz', ['list_dashboards'])
})
afterAll(() => t.close())

describe('who may call', () => {
  it('answers anonymous callers with 401', async () => {
    const anonymous = new Client(t.app)
    for (const [method, path] of [['GET', '/api/query_snippets'], ['POST', '/api/query_snippets'], ['GET', '/api/query_snippets/1'],
      ['POST', '/api/query_snippets/1'], ['DELETE', '/api/query_snippets/1']]) {
      expect((await anonymous.request(method, path, method === 'GET' ? {} : { json: {} })).status, `${method} ${path}`).toBe(401)
    }
  })

  it('lets only query readers list, and only query writers create', async () => {
    expect((await outsider.get('/api/query_snippets')).status).toBe(403)
    expect((await outsider.get('/api/query_snippets/1')).status).toBe(403)
    expect((await viewer.get('/api/query_snippets')).status).toBe(200)
    expect((await viewer.post('/api/query_snippets', { trigger: 'x', snippet: 'select 1' })).status).toBe(403)
  })
})

describe('create', () => {
  it('refuses bad input with a message naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ snippet: 'select 1' }, 'Trigger: This field is required.'],
      [{ trigger: '   ', snippet: 'select 1' }, 'Trigger: This field is required.'],
      [{ trigger: 7, snippet: 'select 1' }, 'Trigger must be text.'],
      [{ trigger: 'x'.repeat(256), snippet: 'select 1' }, 'Trigger: Must be at most 255 characters.'],
      [{ trigger: 'x' }, 'Snippet: This field is required.'],
      [{ trigger: 'x', snippet: ' \n\t' }, 'Snippet: This field is required.'],
      [{ trigger: 'x', snippet: 'select 1', description: 5 }, 'Description must be text.'],
      [['x'], 'The request body must be a JSON object.'],
    ]
    for (const [body, message] of cases) {
      expect(await json(await bo.post('/api/query_snippets', body)), JSON.stringify(body)).toEqual({ status: 400, body: { message } })
    }
    const notJson = await bo.request('POST', '/api/query_snippets', { headers: { 'content-type': 'application/json' } })
    expect(await json(notJson)).toEqual({ status: 400, body: { message: 'The request body must be JSON.' } })
  })

  it('creates with a trimmed trigger, an empty description by default, the author and the dates', async () => {
    const { status, body } = await json(await bo.post('/api/query_snippets', { trigger: '  orders ', snippet: '\n  select * from orders\n', id: 99, user: null }))
    expect(status).toBe(200)
    expect(body).toMatchObject({ trigger: 'orders', description: '', snippet: '\n  select * from orders\n', user: { id: boId, name: 'Bo Builder' } })
    expect(body.user).not.toHaveProperty('api_key')
    expect(body.id).not.toBe(99) // ids are the server's
    expect(Date.parse(body.created_at)).toBeGreaterThan(0)
    expect(body.updated_at).toBe(body.created_at)
    expect(Object.keys(body).sort()).toEqual(['created_at', 'description', 'id', 'snippet', 'trigger', 'updated_at', 'user'])
  })

  it('answers a taken trigger with 409, never 500', async () => {
    expect(await json(await cy.post('/api/query_snippets', { trigger: 'orders', snippet: 'select 2' })))
      .toEqual({ status: 409, body: { message: 'A snippet with this trigger already exists.' } })
  })
})

describe('read, save, delete', () => {
  let ordersId: number
  let cyId: number
  beforeAll(async () => {
    const list = await (await bo.get('/api/query_snippets')).json()
    ordersId = list.find((s: { trigger: string }) => s.trigger === 'orders').id
    cyId = (await (await cy.post('/api/query_snippets', { trigger: 'active_users', description: 'Who came back', snippet: 'select 3' })).json()).id
  })

  it('lists every snippet of the organization by trigger, to anyone who reads queries', async () => {
    const list = await (await viewer.get('/api/query_snippets')).json()
    expect(list.map((s: { trigger: string }) => s.trigger)).toEqual(['active_users', 'orders'])
    expect(list[0]).toMatchObject({ description: 'Who came back', user: { name: 'Cy Colleague' } })
    expect((await json(await viewer.get(`/api/query_snippets/${ordersId}`))).body.trigger).toBe('orders')
  })

  it('answers unknown or impossible ids with 404', async () => {
    for (const path of ['/api/query_snippets/424242', '/api/query_snippets/abc', '/api/query_snippets/0']) {
      expect((await bo.get(path)).status, path).toBe(404)
      expect((await admin.post(path, { description: 'x' })).status, path).toBe(404)
      expect((await admin.request('DELETE', path)).status, path).toBe(404)
    }
  })

  it('lets the author save only the fields sent', async () => {
    const before = await (await bo.get(`/api/query_snippets/${ordersId}`)).json()
    const { status, body } = await json(await bo.post(`/api/query_snippets/${ordersId}`, { description: 'All orders' }))
    expect(status).toBe(200)
    expect(body).toMatchObject({ trigger: 'orders', description: 'All orders', snippet: before.snippet, created_at: before.created_at })
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at))
    expect((await json(await bo.post(`/api/query_snippets/${ordersId}`, { trigger: ' ' }))).body.message).toBe('Trigger: This field is required.')
    expect(await json(await bo.post(`/api/query_snippets/${ordersId}`, { trigger: 'active_users' })))
      .toEqual({ status: 409, body: { message: 'A snippet with this trigger already exists.' } })
  })

  it('refuses others with 403, and lets an admin edit anyone\'s', async () => {
    for (const client of [cy, viewer]) {
      expect(await json(await client.post(`/api/query_snippets/${ordersId}`, { snippet: 'drop table orders' })))
        .toEqual({ status: 403, body: { message: "You don't have permission to edit this resource." } })
      expect((await client.request('DELETE', `/api/query_snippets/${ordersId}`)).status).toBe(403)
    }
    const saved = await json(await admin.post(`/api/query_snippets/${ordersId}`, { trigger: 'all_orders', snippet: 'select * from orders o' }))
    expect(saved.body).toMatchObject({ trigger: 'all_orders', snippet: 'select * from orders o', user: { id: boId } }) // still Bo's
  })

  it('deletes for the author or an admin, and records every change as an event', async () => {
    expect((await bo.request('DELETE', `/api/query_snippets/${ordersId}`)).status).toBe(204)
    expect((await bo.get(`/api/query_snippets/${ordersId}`)).status).toBe(404)
    expect((await admin.request('DELETE', `/api/query_snippets/${cyId}`)).status).toBe(204)
    const events = await t.db.sql<{ action: string; object_id: string }[]>`
      select action, object_id from events where object_type = 'query_snippet' order by id`
    expect(events.map((e) => `${e.action} ${e.object_id}`)).toEqual([
      `create ${ordersId}`, `create ${cyId}`, `edit ${ordersId}`, `edit ${ordersId}`, `delete ${ordersId}`, `delete ${cyId}`,
    ])
  })

  it('keeps a snippet whose author is gone: no user, and only admins may change it', async () => {
    const gone = await addUser(t, { name: 'Gone Soon', email: 'gone@example.com', password: 'gone-password' })
    const [row] = await t.db.sql<{ id: number }[]>`
      insert into query_snippets (org_id, user_id, trigger, snippet) values (${orgId}, ${gone.id}, 'orphan', 'select 4') returning id`
    await t.db.sql`delete from users where id = ${gone.id}`
    expect((await json(await bo.get(`/api/query_snippets/${row.id}`))).body.user).toBeNull()
    expect((await bo.post(`/api/query_snippets/${row.id}`, { description: 'mine now' })).status).toBe(403)
    expect((await admin.request('DELETE', `/api/query_snippets/${row.id}`)).status).toBe(204)
  })
})

describe('the /query_snippets page', () => {
  const triggers = Array.from({ length: 12 }, (_, i) => `snip_${String(i + 1).padStart(2, '0')}`)
  const shown = (html: string) => [...html.matchAll(/data-snippet-id="\d+"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1])
  beforeAll(async () => {
    for (const trigger of triggers) {
      const client = trigger === 'snip_03' ? cy : bo
      expect((await client.post('/api/query_snippets', { trigger, description: `About ${trigger}`, snippet: `select '${trigger}'` })).status).toBe(200)
    }
  })

  it('sends anonymous visitors to sign in, and refuses those who cannot read queries', async () => {
    const res = await new Client(t.app).get('/query_snippets')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?next=%2Fquery_snippets')
    const { status, html } = await page(outsider, '/query_snippets')
    expect(status).toBe(403)
    expect(html).toContain(FORBIDDEN)
  })

  it('lists 10 by trigger, with pages, sizes and sorting in the address', async () => {
    const first = await page(bo, '/query_snippets')
    expect(first.status).toBe(200)
    expect(shown(first.html)).toEqual(triggers.slice(0, 10))
    expect(first.html).toContain('Page 1 of 2')
    expect(first.html).toContain('href="/query_snippets/new"')
    expect(islandsOf(first.html)).toContain('SnippetDialog')
    expect(islandProps(first.html, 'SnippetDialog')).toMatchObject({ opened: null, listHref: '/query_snippets', viewer: { id: boId, admin: false, canCreate: true } })
    expect(shown((await page(bo, '/query_snippets?page=2')).html)).toEqual(triggers.slice(10))
    expect(shown((await page(bo, '/query_snippets?page=9')).html)).toEqual(triggers.slice(10)) // past the end: the last page
    expect(shown((await page(bo, '/query_snippets?order=-trigger&page_size=5')).html)).toEqual(triggers.slice(7).reverse())
    const byAuthor = shown((await page(bo, '/query_snippets?order=created_by&page_size=20')).html)
    expect(byAuthor).toEqual([...triggers.filter((x) => x !== 'snip_03'), 'snip_03']) // Bo Builder before Cy Colleague; then by id
    expect((await page(bo, '/query_snippets?order=-updated_at')).html).toContain('aria-sort="descending"')
  })

  it('opens the dialog on /new and /{id}, keeping the list\'s state for closing', async () => {
    const id = (await (await bo.get('/api/query_snippets')).json()).find((s: { trigger: string }) => s.trigger === 'snip_03').id
    const one = await page(bo, `/query_snippets/${id}?order=-trigger`)
    expect(one.status).toBe(200)
    expect(islandProps(one.html, 'SnippetDialog')).toEqual({
      opened: { id, trigger: 'snip_03', description: 'About snip_03', snippet: "select 'snip_03'", user: { id: expect.any(Number), name: 'Cy Colleague' } },
      listHref: '/query_snippets?order=-trigger', viewer: { id: boId, admin: false, canCreate: true },
    })
    expect(islandProps((await page(bo, '/query_snippets/new')).html, 'SnippetDialog').opened).toBe('new')
    for (const path of ['/query_snippets/424242', '/query_snippets/abc']) {
      const missing = await page(bo, path)
      expect(missing.status, path).toBe(404)
      expect(missing.html).toContain(NOT_FOUND)
    }
  })

  it('offers creating only to query writers: readers see the list, and /new leads them back to it', async () => {
    const { status, html } = await page(viewer, '/query_snippets')
    expect(status).toBe(200)
    expect(html).not.toContain('href="/query_snippets/new"')
    const res = await page(viewer, '/query_snippets/new')
    expect([res.status, res.location]).toEqual([302, '/query_snippets'])
  })
})
