import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Every API endpoint of the platform against every kind of caller: the server decides, whatever the browser shows.
 * Statuses: the call either succeeds (2xx) or is refused with the given code.
 */
type Role = 'anonymous' | 'user' | 'admin' | 'userKey' | 'disabledKey'
const table: [method: string, path: string, body: unknown, expected: Record<Role, number>][] = [
  ['GET', '/api/session', undefined, { anonymous: 401, user: 200, admin: 200, userKey: 200, disabledKey: 401 }],
  ['GET', '/api/config', undefined, { anonymous: 200, user: 200, admin: 200, userKey: 200, disabledKey: 200 }],
  ['GET', '/api/organization/status', undefined, { anonymous: 401, user: 200, admin: 200, userKey: 200, disabledKey: 401 }],
  ['GET', '/api/settings/organization', undefined, { anonymous: 401, user: 403, admin: 200, userKey: 403, disabledKey: 401 }],
  ['POST', '/api/settings/organization', { null_value: '∅' }, { anonymous: 401, user: 403, admin: 200, userKey: 403, disabledKey: 401 }],
  ['GET', '/api/users/1', undefined, { anonymous: 401, user: 200, admin: 200, userKey: 200, disabledKey: 401 }],
  ['POST', '/api/users/1/regenerate_api_key', undefined, { anonymous: 401, user: 403, admin: 200, userKey: 403, disabledKey: 401 }],
  ['POST', '/api/events', [{ action: 'view', object_type: 'page' }], { anonymous: 401, user: 200, admin: 200, userKey: 200, disabledKey: 401 }],
]

let t: TestApp
const callers = {} as Record<Role, (method: string, path: string, body: unknown) => Promise<Response>>

beforeAll(async () => {
  t = await createTestApp()
  const admin = await setUp(t.app)
  const user = await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  const disabled = await addUser(t, { name: 'Dee', email: 'dee@example.com', password: 'dee-password', disabled: true })
  const userClient = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  const byKey = (key: string) => async (method: string, path: string, body: unknown) =>
    t.app.request(path, { method, headers: { authorization: `Key ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  callers.anonymous = (m, p, b) => new Client(t.app).request(m, p, { json: b })
  callers.user = (m, p, b) => userClient.request(m, p, { json: b })
  callers.admin = (m, p, b) => admin.request(m, p, { json: b })
  callers.userKey = byKey(user.apiKey)
  callers.disabledKey = byKey(disabled.apiKey)
})
afterAll(() => t.close())

describe.each(table)('%s %s', (method, path, body, expected) => {
  it.each(Object.entries(expected) as [Role, number][])('%s → %i', async (role, status) => {
    const res = await callers[role](method, path, body)
    if (status === 200) expect(res.status).toBeLessThan(300)
    else {
      expect(res.status).toBe(status)
      expect((await res.json()).message).toEqual(expect.any(String))
    }
  })
})
