import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, addUser, createTestApp, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { fakeTrino } from '../runners/fakes/trino.ts'

// A source that impersonates its users learns who a run is for from the execution itself: the worker reads the
// executing user with the claim and hands their e-mail and name to the engine.
const trino = fakeTrino({ origin: 'http://198.51.100.24:8080' })
const server = setupServer(...trino.handlers)
let t: TestApp
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'bypass' })
  t = await createTestApp()
})
afterAll(async () => {
  server.close()
  await t?.close()
})

describe('a run on an impersonating source', () => {
  it('reaches Trino as the user who ran it, by e-mail or by name as the source says', async () => {
    const admin = await setUp(t.app)
    const ds = await (await admin.post('/api/data_sources', { name: 'Lake', type: 'trino', options: { host: '198.51.100.24', username: 'sightline', catalog: 'tpch', impersonation: true } })).json()
    await addUser(t, { name: 'Bea Member', email: 'bea@example.com', password: 'correct horse battery' })
    const { client: bea } = await signInAs(t.app, 'bea@example.com', 'correct horse battery')
    const userOf = async (client: typeof admin, text: string) => {
      const res = await client.post('/api/query_results', { data_source_id: ds.id, query: text, max_age: 0 })
      expect(res.status, await res.clone().text()).toBe(200)
      await runJobs(t)
      return trino.requests.find((r) => r.method === 'POST' && r.body.includes(text))?.headers['x-trino-user']
    }
    expect(await userOf(bea, 'SELECT 1 AS bea')).toBe('bea@example.com')
    expect(await userOf(admin, 'SELECT 1 AS ada')).toBe(ADMIN.email)
    await admin.post(`/api/data_sources/${ds.id}`, { name: 'Lake', type: 'trino', options: { host: '198.51.100.24', username: 'sightline', catalog: 'tpch', impersonation: true, impersonationField: 'name' } })
    expect(await userOf(bea, 'SELECT 2 AS bea')).toBe('Bea Member')
  })
})
