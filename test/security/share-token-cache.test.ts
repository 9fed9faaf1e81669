import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, runJobs, type TestApp } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from '../api/queries-fixture.ts'

/**
 * Every web process remembers the share tokens it has found. Turning sharing off closes the public page at once in
 * every process (the cache bus), and turning it on again gives a new token that works everywhere while the old one
 * stays closed.
 */
let f: QueryFixture
let other: TestApp
let q: QueryJson
let dashboardId: number

const ok = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}

/** What a stranger holding the token reaches on one process: the page, its JSON shape, a chart's stored result. */
async function reach(t: TestApp, token: string) {
  const keyed = { headers: { authorization: `Key ${token}` } }
  return {
    page: (await t.app.request(`/public/dashboards/${token}`)).status,
    shape: (await t.app.request(`/api/dashboards/public/${token}`)).status,
    result: (await t.app.request(`/api/queries/${q.id}/results.json`, keyed)).status,
  }
}
const open = { page: 200, shape: 200, result: 200 }
const closed = { page: 404, shape: 404, result: 404 }

async function share(): Promise<string> {
  return (await ok(f.bo.post(`/api/dashboards/${dashboardId}/share`))).api_key as string
}
/** Turn sharing off as Bo, once the other process has heard of it. */
async function unshare() {
  const heard = new Promise<void>((resolve) => other.deps.bus.on('share', (id) => id === String(dashboardId) && resolve()))
  expect((await f.bo.request('DELETE', `/api/dashboards/${dashboardId}/share`)).status).toBe(200)
  await heard
}

beforeAll(async () => {
  f = await queryFixture()
  // a second web process on the same database: it hears of unsharing only through the bus
  other = await createTestApp({}, { db: f.t.db })
  q = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Orders', query: 'select 3 as orders' })
  await ok(f.bo.post(`/api/queries/${q.id}/results`, { max_age: 0 }))
  await runJobs(f.t)
  const d = await ok(f.bo.post('/api/dashboards', { name: 'Orders board' }))
  dashboardId = d.id
  await ok(f.bo.post('/api/widgets', { dashboard_id: d.id, visualization_id: (q.visualizations as { id: number }[])[0].id, options: {} }))
  await ok(f.bo.post(`/api/dashboards/${d.id}`, { is_draft: false }))
}, 60_000)
afterAll(async () => {
  await other?.deps.bus.stop()
  await other?.deps.executionsDone.stop()
  await f?.t.close()
})

describe('share tokens across web processes', () => {
  it('closes the public page at once in every process when sharing is turned off', async () => {
    const token = await share()
    // both processes have found (and remember) the token
    expect(await reach(f.t, token)).toEqual(open)
    expect(await reach(other, token)).toEqual(open)
    expect(await reach(other, token)).toEqual(open)
    await unshare()
    expect(await reach(other, token)).toEqual(closed)
    expect(await reach(f.t, token)).toEqual(closed)
  })

  it('opens a new token when sharing is turned on again, and the old one stays closed everywhere', async () => {
    const old = await share()
    expect(await reach(other, old)).toEqual(open)
    await unshare()
    const renewed = await share()
    expect(renewed).not.toBe(old)
    for (const t of [other, f.t]) {
      expect(await reach(t, renewed)).toEqual(open)
      expect(await reach(t, old)).toEqual(closed)
    }
  })
})
