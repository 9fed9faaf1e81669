import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../../src/credentials/index.ts'
import { addUser, Client, signInAs, startWorkerFor } from '../helpers/app.ts'
import { settle } from '../helpers/jobs.ts'
import { newQuery, queryFixture, refusal, type QueryFixture, type QueryJson } from './queries-fixture.ts'

/**
 * Public dashboards through the API (spec 2 §5, §7; reference §7.1, `redash-dashboards-alerts.md` §1.1): who may
 * share, the token's storage and scope, the public shape, its caching, and the organization's switch.
 */
let f: QueryFixture
let worker: { stop(): Promise<void> }
let grantee: Client
let granteeId: number

/** A caller holding only a key: `Authorization: Key …`, no cookies. */
class KeyClient extends Client {
  constructor(app: QueryFixture['t']['app'], private key: string) {
    super(app)
  }

  override request(method: string, path: string, o: Parameters<Client['request']>[2] = {}) {
    return super.request(method, path, { ...o, headers: { authorization: `Key ${this.key}`, ...o.headers } })
  }
}

beforeAll(async () => {
  f = await queryFixture()
  worker = await startWorkerFor(f.t)
  granteeId = (await addUser(f.t, { name: 'Gus', email: 'gus@example.com', password: 'gus-password' })).id
  grantee = (await signInAs(f.t.app, 'gus@example.com', 'gus-password')).client
}, 60_000)
afterAll(async () => {
  await worker?.stop()
  await f?.t.close()
})

const json = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const anonymous = () => new Client(f.t.app)

/** A published dashboard of Bo's with a chart of each query given; Gus is granted modify on it. */
async function dashboardWith(...queries: QueryJson[]) {
  const d = await json(f.bo.post('/api/dashboards', { name: `Shared ${Math.random().toString(36).slice(2, 8)}` }))
  await json(f.bo.post(`/api/dashboards/${d.id}`, { is_draft: false }))
  for (const q of queries) {
    const visualization = (q.visualizations as { id: number }[])[0].id
    await json(f.bo.post('/api/widgets', { dashboard_id: d.id, visualization_id: visualization, options: {} }))
  }
  await json(f.admin.post(`/api/dashboards/${d.id}/acl`, { access_type: 'modify', user_id: granteeId }))
  return d as { id: number }
}
const safeQuery = (name = 'Safe') => newQuery(f.bo, { data_source_id: f.warehouse, name, query: 'select 7 as n, \'{{ region }}\' as region', options: {
  parameters: [{ name: 'region', title: 'Region', type: 'enum', enumOptions: 'North\nSouth', value: 'North' }],
} })
let plainCount = 0
const plainQuery = (name = 'Plain') => newQuery(f.bo, { data_source_id: f.warehouse, name, query: `select 1 as one, ${++plainCount} as nth` })
const unsafeQuery = () => newQuery(f.bo, { data_source_id: f.warehouse, name: 'Unsafe', query: "select '{{ who }}' as who", options: {
  parameters: [{ name: 'who', title: 'Who', type: 'text', value: 'x' }],
} })
const UNSHARED = 'This query contains potentially unsafe parameters and cannot be executed on a shared dashboard or an embedded visualization.'

describe('who may share', () => {
  it('lets the owner and admins turn sharing on and off; refuses strangers, members, view-only members and grantees', async () => {
    const d = await dashboardWith(await plainQuery())
    const path = `/api/dashboards/${d.id}/share`
    for (const method of ['POST', 'DELETE']) {
      expect((await anonymous().request(method, path)).status).toBe(401)
      expect((await f.cleo.request(method, path)).status).toBe(403)
      expect((await f.vi.request(method, path)).status).toBe(403)
      expect((await grantee.request(method, path)).status).toBe(403)
    }
    const mine = await json(f.bo.post(path))
    const admins = await json(f.admin.post(path))
    expect(admins.api_key).toBe(mine.api_key)
    await json(f.admin.request('DELETE', path))
    expect((await anonymous().get(`/api/dashboards/public/${mine.api_key}`)).status).toBe(404)
  })

  it('answers the same token while sharing is on, keeps only its hash and a sealed copy, and a new one after turning it off', async () => {
    const d = await dashboardWith(await plainQuery())
    const first = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    expect(first.api_key).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(first.public_url).toBe(`http://localhost/public/dashboards/${first.api_key}`)
    expect((await json(f.bo.post(`/api/dashboards/${d.id}/share`))).api_key).toBe(first.api_key)
    const rows = await f.t.db.sql<{ key_hash: Buffer; key_sealed: string | null; legacy_plain_key: string | null; active: boolean }[]>`
      select key_hash, key_sealed, legacy_plain_key, active from api_keys where object_type = 'dashboards' and object_id = ${d.id}`
    expect(rows).toHaveLength(1)
    expect(rows[0].key_hash.equals(sha256(first.api_key))).toBe(true)
    expect(rows[0].legacy_plain_key).toBeNull()
    expect(rows[0].key_sealed).not.toContain(first.api_key)
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}/share`))
    const revoked = await f.t.db.sql<{ active: boolean; key_sealed: string | null }[]>`select active, key_sealed from api_keys where object_type = 'dashboards' and object_id = ${d.id}`
    expect(revoked).toEqual([{ active: false, key_sealed: null }])
    const again = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    expect(again.api_key).not.toBe(first.api_key)
    expect((await anonymous().get(`/api/dashboards/public/${first.api_key}`)).status).toBe(404)
    expect((await anonymous().get(`/api/dashboards/public/${again.api_key}`)).status).toBe(200)
  })

  it('turns off a dashboard that was never shared with a 200, and 404s an unknown dashboard', async () => {
    const d = await dashboardWith()
    expect((await f.bo.request('DELETE', `/api/dashboards/${d.id}/share`)).status).toBe(200)
    expect((await f.bo.post('/api/dashboards/999999/share')).status).toBe(404)
  })

  it('shares a dashboard with a text-parameter query, as the established tool does; its token never opens that query', async () => {
    const unsafe = await unsafeQuery()
    const d = await dashboardWith(await plainQuery(), unsafe)
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    expect(await refusal(new KeyClient(f.t.app, token).post(`/api/queries/${unsafe.id}/results`, { parameters: { who: 'x' }, max_age: -1 })))
      .toEqual([403, UNSHARED])
  })

  it('shows public_url and api_key in the dashboard to the owner and admins only, and only while on', async () => {
    const d = await dashboardWith(await plainQuery())
    expect(await json(f.bo.get(`/api/dashboards/${d.id}`))).not.toHaveProperty('public_url')
    const shared = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    for (const client of [f.bo, f.admin]) {
      expect(await json(client.get(`/api/dashboards/${d.id}`))).toMatchObject({ public_url: shared.public_url, api_key: shared.api_key })
    }
    for (const client of [f.cleo, f.vi, grantee]) {
      const seen = await json(client.get(`/api/dashboards/${d.id}`))
      expect(seen).not.toHaveProperty('public_url')
      expect(JSON.stringify(seen)).not.toContain(shared.api_key)
    }
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}/share`))
    expect(await json(f.admin.get(`/api/dashboards/${d.id}`))).not.toHaveProperty('api_key')
  })
})

describe('the public shape', () => {
  it('answers the reduced dashboard, frameable by any site, with no query text, keys, sources or people', async () => {
    const q = await safeQuery('Regional')
    const d = await dashboardWith(q, await plainQuery())
    await json(f.bo.post('/api/widgets', { dashboard_id: d.id, visualization_id: null, text: '## Notes', options: {} }))
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    const res = await anonymous().get(`/api/dashboards/public/${token}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain('frame-ancestors *')
    expect(res.headers.get('x-frame-options')).toBeNull()
    const body = await res.json()
    expect(Object.keys(body).sort()).toEqual(['created_at', 'dashboard_filters_enabled', 'layout', 'name', 'options', 'updated_at', 'widgets'])
    const chart = body.widgets.find((w: { visualization?: unknown }) => w.visualization)
    expect(Object.keys(chart.visualization).sort()).toEqual(['created_at', 'description', 'name', 'options', 'query', 'type', 'updated_at'])
    expect(Object.keys(chart.visualization.query).sort()).toEqual(['description', 'id', 'name', 'options'])
    expect(body.widgets.find((w: { text: string }) => w.text === '## Notes')).not.toHaveProperty('visualization')
    const text = JSON.stringify(body)
    for (const secret of ['select 7', 'select 1', q.api_key, 'Warehouse', 'bo@example.com', token]) expect(text).not.toContain(secret)
  })

  it('answers an unknown, a malformed and a revoked token alike', async () => {
    const d = await dashboardWith(await plainQuery())
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}/share`))
    const answers = await Promise.all([token, 'A'.repeat(40), 'nope', `${token}x`].map(async (t) => {
      const res = await anonymous().get(`/api/dashboards/public/${t}`)
      return [res.status, await res.text()]
    }))
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(answers[0][0]).toBe(404)
  })

  it('sends validators and answers 304 to a revalidation until the dashboard changes', async () => {
    const d = await dashboardWith(await plainQuery())
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    const first = await anonymous().get(`/api/dashboards/public/${token}`)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^W\/"/)
    expect(first.headers.get('cache-control')).toBe('public, no-cache')
    expect(first.headers.get('last-modified')).toBeTruthy()
    const again = await anonymous().get(`/api/dashboards/public/${token}`, { 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    await json(f.bo.post(`/api/dashboards/${d.id}`, { name: 'Renamed shared' }))
    expect((await anonymous().get(`/api/dashboards/public/${token}`, { 'if-none-match': etag })).status).toBe(200)
  })

  it('lets caches keep it for the shortest refresh interval of its queries', async () => {
    const hourly = await plainQuery('Hourly')
    await json(f.bo.post(`/api/queries/${hourly.id}`, { schedule: { interval: 3600, time: null, day_of_week: null, until: null }, version: hourly.version }))
    const often = await plainQuery('Often')
    await json(f.bo.post(`/api/queries/${often.id}`, { schedule: { interval: 600, time: null, day_of_week: null, until: null }, version: often.version }))
    const d = await dashboardWith(hourly, often)
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    expect((await anonymous().get(`/api/dashboards/public/${token}`)).headers.get('cache-control')).toBe('public, max-age=600, must-revalidate')
  })

  it('goes dark when the organization disables public URLs, and sharing is then refused', async () => {
    const d = await dashboardWith(await plainQuery())
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    await json(f.admin.post('/api/settings/organization', { disable_public_urls: true }))
    try {
      expect((await anonymous().get(`/api/dashboards/public/${token}`)).status).toBe(404)
      expect((await anonymous().get(`/public/dashboards/${token}`)).status).toBe(404)
      expect(await refusal(f.bo.post(`/api/dashboards/${d.id}/share`))).toEqual([400, 'Public URLs are disabled.'])
    } finally {
      await json(f.admin.post('/api/settings/organization', { disable_public_urls: false }))
    }
    expect((await anonymous().get(`/api/dashboards/public/${token}`)).status).toBe(200)
  })

  it('goes dark while the dashboard is archived', async () => {
    const d = await dashboardWith(await plainQuery())
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}`))
    expect((await anonymous().get(`/api/dashboards/public/${token}`)).status).toBe(404)
  })
})

describe("the token's scope", () => {
  it("runs and reads the dashboard's own queries, and nothing else", async () => {
    const mine = await safeQuery('On the board')
    const other = await plainQuery('Elsewhere')
    const plain = await plainQuery('Also on the board')
    const d = await dashboardWith(mine, plain)
    const elsewhere = await dashboardWith(other)
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    const key = new KeyClient(f.t.app, token)

    const run = await key.post(`/api/queries/${mine.id}/results`, { parameters: { region: 'South' }, max_age: 0 })
    expect(run.status, await run.clone().text()).toBe(200)
    const answer = await run.json()
    const resultId = answer.query_result?.id ?? (await settle(key, answer.job, `/api/queries/${mine.id}/jobs/${answer.job.id}`)).query_result_id
    const result = await json(key.get(`/api/queries/${mine.id}/results/${resultId}.json`))
    expect(result.query_result.data.rows).toEqual([{ n: 7, region: 'South' }])
    const plainRun = await (await key.post(`/api/queries/${plain.id}/results`, { parameters: {}, max_age: 0 })).json()
    if (plainRun.job) await settle(key, plainRun.job, `/api/queries/${plain.id}/jobs/${plainRun.job.id}`)
    const latest = await key.get(`/api/queries/${plain.id}/results.json`)
    expect(latest.status).toBe(200)
    expect(await latest.text()).not.toContain('select 1')

    // not another query, not the query itself, not another dashboard, not any other API
    expect((await key.post(`/api/queries/${other.id}/results`, { parameters: {}, max_age: 0 })).status).toBe(404)
    expect((await key.get(`/api/queries/${other.id}/results.json`)).status).toBe(404)
    expect((await key.get(`/api/queries/${mine.id}`)).status).toBe(404)
    expect((await key.get(`/api/query_results/${resultId}`)).status).toBe(401)
    expect((await key.get(`/api/dashboards/${d.id}`)).status).toBe(401)
    expect((await key.get(`/api/dashboards/${elsewhere.id}`)).status).toBe(401)
    expect((await key.get('/api/dashboards')).status).toBe(401)
    expect((await key.get('/api/queries')).status).toBe(401)
    expect((await key.post('/api/query_results', { data_source_id: f.warehouse, query: 'select 2' })).status).toBe(401)
    expect((await key.post(`/api/dashboards/${d.id}/share`)).status).toBe(401)
    expect((await key.get('/api/users')).status).toBe(401)

    // revoked: nothing at all
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}/share`))
    expect((await key.post(`/api/queries/${mine.id}/results`, { parameters: {}, max_age: 0 })).status).toBe(404)
  })

  it('refuses new values for a query that became unsafe after sharing, with the shared message', async () => {
    const q = await safeQuery('Turns unsafe')
    const d = await dashboardWith(q)
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    await json(f.bo.post(`/api/queries/${q.id}`, { version: q.version, query: "select '{{ who }}' as who", options: { parameters: [{ name: 'who', title: 'Who', type: 'text', value: 'x' }] } }))
    const key = new KeyClient(f.t.app, token)
    expect(await refusal(key.post(`/api/queries/${q.id}/results`, { parameters: { who: 'x' }, max_age: 0 })))
      .toEqual([403, 'This query contains potentially unsafe parameters and cannot be executed on a shared dashboard or an embedded visualization.'])
  })

  it('checks parameter values as the query page does: a bad one is a 400 with the reason, not a 5xx', async () => {
    const q = await safeQuery('Checked')
    const d = await dashboardWith(q)
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    const res = await new KeyClient(f.t.app, token).post(`/api/queries/${q.id}/results`, { parameters: { region: 'Atlantis' }, max_age: 0 })
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBeTruthy()
  })

  it('shares executions among public viewers: max_age 0 from a thousand viewers still reuses a result younger than a minute', async () => {
    const q = await plainQuery('Popular')
    const d = await dashboardWith(q)
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${d.id}/share`))
    const key = new KeyClient(f.t.app, token)
    const first = await (await key.post(`/api/queries/${q.id}/results`, { parameters: {}, max_age: 0 })).json()
    if (first.job) expect((await settle(key, first.job, `/api/queries/${q.id}/jobs/${first.job.id}`)).status).toBe(3)
    const answers = await Promise.all(Array.from({ length: 20 }, () => key.post(`/api/queries/${q.id}/results`, { parameters: {}, max_age: 0 }).then((r) => r.json())))
    expect(answers.every((a) => a.query_result?.id > 0)).toBe(true)
    const [{ n }] = await f.t.db.sql<{ n: number }[]>`select count(*)::int as n from executions where query_id = ${q.id}`
    expect(n).toBe(1)
  })
})
