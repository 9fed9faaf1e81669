import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * The audit log is evidence: through POST /api/events a signed-in browser may report only the views and runs browsers
 * report, with a few short properties. Made-up actions (a forged "login" or "delete"), bulk data and anonymous callers
 * are refused, and a refused batch leaves nothing behind.
 */

let t: TestApp
let member: Client

beforeAll(async () => {
  t = await createTestApp()
  await setUp(t.app)
  await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })
  member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
})
afterAll(() => t.close())

const countEvents = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from events`)[0].n

/** Posts a batch that must be refused with 400 and must leave the audit log as it was; returns the message. */
async function refused(body: unknown): Promise<string> {
  const before = await countEvents()
  const res = await member.post('/api/events', body)
  expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400)
  expect(await countEvents()).toBe(before)
  return (await res.json()).message
}

describe('POST /api/events', () => {
  it('refuses actions and object types browsers do not report, such as a forged sign-in or deletion', async () => {
    for (const event of [
      { action: 'login', object_type: 'redash' },
      { action: 'delete', object_type: 'query', object_id: 1 },
      { action: 'regenerate_api_key', object_type: 'user', object_id: 1 },
      { action: 'view', object_type: 'bank_account' },
      { action: 'anything at all', object_type: 'page' },
    ]) {
      expect(await refused([event])).toContain('is not an event a browser reports')
    }
  })

  it('refuses the whole batch when one event is bad', async () => {
    await refused([{ action: 'view', object_type: 'page', object_id: 'personal_homepage' }, { action: 'login', object_type: 'redash' }])
  })

  it('caps the extra properties: few keys, flat, short text, 4 KB in all, none of the server\'s own', async () => {
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`p${i}`, i]))
    const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, '€'.repeat(200)])) // 6,000 bytes
    for (const extra of [many, wide, { nested: { a: 1 } }, { list: [1, 2] }, { note: 'x'.repeat(201) }, { 'bad name': 1 },
      { user_id: 1 }, { ip: '10.0.0.1' }, { api_key: 'someone' }]) {
      expect(await refused([{ action: 'view', object_type: 'page', object_id: 'home', ...extra }])).toContain('extra properties')
    }
    expect(await refused([{ action: 'view', object_type: 'query', object_id: '<script>' }])).toContain('object_id')
  })

  it('records the views and runs browsers report, with the server\'s own user agent and address', async () => {
    const res = await member.request('POST', '/api/events', {
      json: [
        { action: 'view', object_type: 'page', object_id: 'personal_homepage', timestamp: 1700000000.5, screen_resolution: '1440x900' },
        { action: 'view', object_type: 'query', object_id: 7, dashboard: true },
        { action: 'view_source', object_type: 'query', object_id: '7' },
        { action: 'execute', object_type: 'query', object_id: 7 },
      ],
      headers: { 'user-agent': 'Browser/1.0' },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ recorded: 4 })
    const rows = await t.db.sql`
      select action, object_type, object_id, additional_properties as p from events where user_id is not null and action in ('view', 'view_source', 'execute') order by id`
    expect(rows.map((r) => [r.action, r.object_type, r.object_id])).toEqual([
      ['view', 'page', 'personal_homepage'], ['view', 'query', '7'], ['view_source', 'query', '7'], ['execute', 'query', '7'],
    ])
    expect(rows[0].p).toMatchObject({ timestamp: 1700000000.5, screen_resolution: '1440x900', user_agent: 'Browser/1.0' })
    expect(rows[1].p).toMatchObject({ dashboard: true })
  })

  it('refuses anonymous callers and callers holding only a query\'s key with 401', async () => {
    const admin = await signInAs(t.app, 'ada@example.com', 'correct horse')
    const ds = await (await admin.client.post('/api/data_sources', { name: 'W', type: 'pg', options: pgOptionsFor(t) })).json()
    const query = await (await admin.client.post('/api/queries', { data_source_id: ds.id, query: 'select 1' })).json()
    const before = await countEvents()
    expect((await new Client(t.app).post('/api/events', [{ action: 'view', object_type: 'page' }])).status).toBe(401)
    expect((await new Client(t.app).post(`/api/events?api_key=${query.api_key}`, [{ action: 'view', object_type: 'page' }])).status).toBe(401)
    expect(await countEvents()).toBe(before)
  })
})
