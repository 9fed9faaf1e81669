import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { outcomeOf, settle } from '../helpers/jobs.ts'

let t: TestApp
let admin: Client
let bo: Client
let worker: { stop(): Promise<void> } | undefined
let dsId: number
let safeId: number
let unsafeId: number
let safeKey: string
let unsafeKey: string
let defaultGroupId: number

const anonymous = () => new Client(t.app)

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  defaultGroupId = (await (await admin.get('/api/groups')).json()).find((g: { name: string }) => g.name === 'default').id
  const safe = await (await admin.post('/api/queries', {
    data_source_id: dsId, name: 'Sales by region', query: "select {{ n }} * 2 as doubled, 'a,b' as \"tricky, \"\"header\"\"\", null as nothing, true as yes",
    options: { parameters: [{ name: 'n', title: 'N', type: 'number', value: 1 }] },
  })).json()
  const unsafe = await (await admin.post('/api/queries', {
    data_source_id: dsId, name: 'Free text', query: "select '{{ who }}' as who",
    options: { parameters: [{ name: 'who', title: 'Who', type: 'text', value: 'Ada' }] },
  })).json()
  ;[safeId, unsafeId, safeKey, unsafeKey] = [safe.id, unsafe.id, safe.api_key, unsafe.api_key]
  worker = await startWorkerFor(t)
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

describe('running a saved query', () => {
  it('runs with new values checked by type, and with the defaults when none are given', async () => {
    const res = await bo.post(`/api/queries/${safeId}/results`, { parameters: { n: 21 }, max_age: 0 })
    expect(res.status).toBe(200)
    const { result: r } = await outcomeOf(bo, res)
    expect(r.data.rows[0].doubled).toBe(42)
    const defaults = await outcomeOf(bo, await bo.post(`/api/queries/${safeId}/results`, { max_age: 0 }))
    expect(defaults.result.data.rows[0].doubled).toBe(2)
    const bad = await bo.post(`/api/queries/${safeId}/results`, { parameters: { n: '1; drop table users' }, max_age: 0 })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toBe('The following parameter values are incompatible with their definitions: n')
  })

  it('lets the query key run a safe query and read only its own results; never an unsafe one', async () => {
    const keyed = await anonymous().post(`/api/queries/${safeId}/results?api_key=${safeKey}`, { parameters: { n: 5 }, max_age: 0 })
    expect(keyed.status).toBe(200)
    const answer = await keyed.json()
    // a run still going when the answer is sent is polled by the key, as an embed does
    const r = answer.query_result ?? (await (await anonymous().get(`/api/queries/${safeId}/results/${(await settle(anonymous(), answer.job,
      `/api/queries/${safeId}/jobs/${answer.job.id}?api_key=${safeKey}`)).query_result_id}.json?api_key=${safeKey}`)).json()).query_result
    expect(r.data.rows[0].doubled).toBe(10)
    expect((await anonymous().get(`/api/queries/${safeId}/results/${r.id}.json?api_key=${safeKey}`)).status).toBe(200)

    const unsafe = await anonymous().post(`/api/queries/${unsafeId}/results?api_key=${unsafeKey}`, { max_age: 0 })
    expect(unsafe.status).toBe(403)
    expect((await unsafe.json()).message).toContain('cannot be executed on a shared dashboard or an embedded visualization')

    const other = (await outcomeOf(admin, await admin.post(`/api/queries/${unsafeId}/results`, { max_age: 0 }))).result
    expect((await anonymous().get(`/api/queries/${safeId}/results/${other.id}.json?api_key=${safeKey}`)).status).toBe(404)
    expect((await anonymous().get(`/api/queries/${unsafeId}/results/${other.id}.json?api_key=${safeKey}`)).status).toBe(404)
    expect((await anonymous().get(`/api/query_results/${r.id}?api_key=${safeKey}`)).status).toBe(401)
    expect((await anonymous().post(`/api/queries/${safeId}/results?api_key=wrong`, {})).status).toBe(404)
    expect((await anonymous().post(`/api/queries/${safeId}/results`, {})).status).toBe(401)
  })

  it('lets view-only members run safe queries with new values, but not unsafe ones', async () => {
    await admin.post(`/api/groups/${defaultGroupId}/data_sources/${dsId}`, { view_only: true })
    try {
      expect((await bo.post(`/api/queries/${safeId}/results`, { parameters: { n: 3 }, max_age: 0 })).status).toBe(200)
      const refused = await bo.post(`/api/queries/${unsafeId}/results`, { max_age: 0 })
      expect(refused.status).toBe(403)
      expect((await refused.json()).message).toBe('This query contains potentially unsafe parameters and cannot be executed with read-only access to this data source.')
    } finally {
      await admin.post(`/api/groups/${defaultGroupId}/data_sources/${dsId}`, { view_only: false })
    }
  })

  it('hides queries of sources the caller has no group for', async () => {
    await admin.request('DELETE', `/api/groups/${defaultGroupId}/data_sources/${dsId}`)
    try {
      expect((await bo.post(`/api/queries/${safeId}/results`, {})).status).toBe(404)
      expect((await bo.get(`/api/queries/${safeId}/results.json`)).status).toBe(404)
    } finally {
      await admin.post(`/api/groups/${defaultGroupId}/data_sources`, { data_source_id: dsId })
    }
  })

  it('lets anyone poll a run of the query by its job id', async () => {
    const { job } = await (await admin.post(`/api/queries/${safeId}/results`, { parameters: { n: 7 }, max_age: 0 }).then(async (r) => {
      const body = await r.json()
      return body.job ? body : { job: null }
    }))
    if (job) {
      const done = await settle(anonymous(), job, `/api/queries/${safeId}/jobs/${job.id}`)
      expect(done.status).toBe(3)
    }
    // a query that waits for a lock the test holds is still running when the answer comes: a job to poll
    const lock = await holdLock(t.db.sql)
    try {
      const slow = await (await admin.post('/api/query_results', { data_source_id: dsId, query: lock.query('1 as held'), max_age: 0, query_id: safeId })).json()
      expect(slow.job.status).toBeLessThan(3)
      await lock.release()
      const polled = await settle(anonymous(), slow.job, `/api/queries/${safeId}/jobs/${slow.job.id}`)
      expect(polled).toMatchObject({ status: 3, error: '' })
      expect((await anonymous().get(`/api/queries/${unsafeId}/jobs/${slow.job.id}`)).status).toBe(404)
    } finally {
      await lock.release()
    }
  })
})

describe('downloads', () => {
  it('streams the latest result as CSV, TSV, XLSX and JSON, named after the query, cell by cell', async () => {
    await outcomeOf(admin, await admin.post(`/api/queries/${safeId}/results`, { max_age: 0 }))
    const csv = await admin.get(`/api/queries/${safeId}/results.csv`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=UTF-8')
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="Sales_by_region_\d{4}_\d\d_\d\d\.csv"$/)
    expect(await csv.text()).toBe('doubled,"tricky, ""header""",nothing,yes\r\n2,"a,b",,true\r\n')
    const tsv = await (await admin.get(`/api/queries/${safeId}/results.tsv`)).text()
    expect(tsv.split(/\r?\n/)[1]).toBe('2\ta,b\t\ttrue')
    const xlsx = await admin.get(`/api/queries/${safeId}/results.xlsx`)
    const bytes = new Uint8Array(await xlsx.arrayBuffer())
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]) // a zip, as .xlsx files are
    const json = await (await admin.get(`/api/queries/${safeId}/results.json`)).json()
    expect(json.query_result.data.rows).toEqual([{ doubled: 2, 'tricky, "header"': 'a,b', nothing: null, yes: true }])
    const byKey = await anonymous().get(`/api/queries/${safeId}/results.csv?api_key=${safeKey}`)
    expect(byKey.status).toBe(200)
  })

  it('answers 404 with the spec text when there is no result, and for unknown formats', async () => {
    const fresh = await (await admin.post('/api/queries', { data_source_id: dsId, query: 'select 123456 as never_run' })).json()
    const res = await admin.get(`/api/queries/${fresh.id}/results.json`)
    expect(res.status).toBe(404)
    expect((await res.json()).message).toBe('No cached result found for this query.')
    expect((await admin.get(`/api/queries/${safeId}/results.pdf`)).status).toBe(404)
    expect((await admin.get('/api/query_results/999999.csv')).status).toBe(404)
  })
})

describe('dropdowns', () => {
  it('offers the latest result of the dropdown query, by name and value columns', async () => {
    const source = await (await admin.post('/api/queries', { data_source_id: dsId, query: "select 'North' as name, 1 as value union all select 'South', 2" })).json()
    await outcomeOf(admin, await admin.post(`/api/queries/${source.id}/results`, { max_age: 0 }))
    expect(await (await bo.get(`/api/queries/${source.id}/dropdown`)).json()).toEqual([{ name: 'North', value: '1' }, { name: 'South', value: '2' }])
    const user = await (await admin.post('/api/queries', {
      data_source_id: dsId, query: 'select {{ region }} as region',
      options: { parameters: [{ name: 'region', title: 'Region', type: 'query', queryId: source.id, value: '1' }] },
    })).json()
    expect((await (await bo.get(`/api/queries/${user.id}/dropdowns/${source.id}`)).json())).toHaveLength(2)
    expect((await bo.get(`/api/queries/${user.id}/dropdowns/${safeId}`)).status).toBe(404)
    const run = await bo.post(`/api/queries/${user.id}/results`, { parameters: { region: '2' }, max_age: 0 })
    expect((await outcomeOf(bo, run)).result.data.rows[0].region).toBe(2)
    const refused = await bo.post(`/api/queries/${user.id}/results`, { parameters: { region: '3' }, max_age: 0 })
    expect(refused.status).toBe(400)
  })
})
