import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeOrigin } from '../fixtures/redash/handlers.ts'
import { ADMIN_KEY, buildInstance, shareKey, userKey } from '../fixtures/redash/instance.ts'
import { Client, createTestApp, runJobs, setUp, type TestApp } from '../helpers/app.ts'

/**
 * What an import lets in: names and markdown from the old instance are stored as given and shown escaped; the old
 * instance's key is never shown back, in the API or the page; imported keys open no more than their owner could
 * (a disabled user's key opens nothing, a share token only its dashboard).
 */
const ORIGIN = 'http://redash-sec.test'
const server = setupServer(...fakeOrigin(ORIGIN, buildInstance('10.1.0')).handlers)
let t: TestApp
let admin: Client
const html = async (client: Client, path: string) => {
  const res = await client.get(path)
  expect(res.status, path).toBe(200)
  return (await res.text()).replaceAll('<!-- -->', '')
}

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'bypass' })
  t = await createTestApp()
  admin = await setUp(t.app)
  const res = await admin.post('/api/imports', { from_url: ORIGIN.replace('http://', 'http://someone:pa55-in-url@'), api_key: ADMIN_KEY })
  expect(res.status).toBe(202)
  await runJobs(t)
})
afterAll(async () => {
  server.close()
  await t.close()
})

describe('imported content', () => {
  it('stores names and markdown with script as given, and shows them escaped', async () => {
    const [ops] = await t.db.sql`select id, name from dashboards where slug = 'ops-board'`
    expect(ops.name).toBe('Ops <img src=x onerror=alert(1)>')
    const board = await html(admin, `/dashboards/${ops.id}-ops-board`)
    expect(board).not.toContain('<img src=x onerror=alert(1)>')
    expect(board).toContain('Ops &lt;img src=x onerror=alert(1)&gt;')
    const [d1] = await t.db.sql`select id from dashboards where slug = 'dashboard-1'`
    const [text] = await t.db.sql`select text from widgets where dashboard_id = ${d1.id} and visualization_id is null`
    expect(text.text).toContain('<script>alert("x")</script>')
    expect(await html(admin, `/dashboards/${d1.id}-dashboard-1`)).not.toContain('<script>alert("x")</script>')
    const [q] = await t.db.sql`select id from queries where name = 'Names <script>alert(1)</script>'`
    const queryPage = await html(admin, `/queries/${q.id}`)
    expect(queryPage).not.toContain('<script>alert(1)</script>')
  })

  it('never shows the old instance key back, nor the credentials of its address', async () => {
    const runs = await (await admin.get('/api/imports')).text()
    const page = await html(admin, '/admin/import')
    for (const shown of [runs, page]) {
      expect(shown).not.toContain(ADMIN_KEY)
      expect(shown).not.toContain('pa55-in-url')
    }
    const [row] = await t.db.sql`select from_url, api_key_sealed from imports`
    expect(row).toEqual({ from_url: `${ORIGIN}/`, api_key_sealed: null })
    // the audit log records who started it and from where, never with the key
    const events = await t.db.sql`select action, additional_properties from events where action = 'import'`
    expect(events).toHaveLength(1)
    expect(JSON.stringify(events)).not.toContain(ADMIN_KEY)
    expect(events[0].additional_properties.from_url).toBe(`${ORIGIN}/`)
  })

  it("gives a disabled user's imported key nothing, and a share token only its dashboard", async () => {
    const anonymous = new Client(t.app)
    expect((await anonymous.get('/api/queries', { Authorization: `Key ${userKey(3)}` })).status).toBe(401)
    expect((await anonymous.get('/api/queries', { Authorization: `Key ${userKey(2)}` })).status).not.toBe(500)
    expect((await anonymous.get('/api/queries', { Authorization: `Key ${shareKey(1)}` })).status).toBeGreaterThanOrEqual(401)
    expect((await anonymous.get('/api/users', { Authorization: `Key ${shareKey(1)}` })).status).toBeGreaterThanOrEqual(401)
  })
})
