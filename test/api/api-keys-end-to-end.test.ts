import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { eventually } from '../helpers/wait.ts'

/**
 * The API driven by key, as a script drives it (issue 16 §5): `Authorization: Key …`, no cookie, no CSRF token. A
 * user's key does what the user may; a query's own key reads that query's results and runs its safe values, nothing
 * else; unknown and revoked keys answer alike.
 */

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> } | undefined
let ds: number
let member: { id: number; apiKey: string }
let disabled: { id: number; apiKey: string }
const q = { safe: { id: 0, key: '' }, unsafe: { id: 0, key: '' }, other: { id: 0, key: '' } }

/** One call as a script makes it: the key in the header, JSON in and out. */
async function call(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return t.app.request(path, {
    method,
    headers: { authorization: `Key ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

async function ok(pending: Promise<Response>) {
  const res = await pending
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`)
  return res.json()
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  member = await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })
  disabled = await addUser(t, { name: 'Dee', email: 'dee@example.com', password: 'dee-password', disabled: true })
  ds = (await ok(admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) }))).id
  const create = async (name: string, query: string, parameters: unknown[]) => {
    const created = await ok(admin.post('/api/queries', { data_source_id: ds, name, query, options: { parameters } }))
    return { id: created.id as number, key: created.api_key as string }
  }
  q.safe = await create('Doubled', 'select {{ n }} * 2 as doubled, {{ n }} as n', [{ name: 'n', title: 'N', type: 'number', value: 1 }])
  q.unsafe = await create('Greeting', "select '{{ who }}' as who", [{ name: 'who', title: 'Who', type: 'text', value: 'Ada' }])
  q.other = await create('Other', "select 'secret' as word", [])
  worker = await startWorkerFor(t)
  await ok(admin.post(`/api/queries/${q.other.id}/results`, { max_age: 0 }))
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

describe("a user's key", () => {
  it('lists queries, runs one with parameters, polls its job, fetches the result and downloads it as CSV', async () => {
    const list = await ok(call(member.apiKey, 'GET', '/api/queries'))
    expect(list.results.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['Doubled', 'Greeting', 'Other']))

    // a run that must wait (a lock the test holds), so the script polls its job as the README shows
    const lock = await holdLock(t.db.sql)
    let jobId: string
    try {
      const slow = await ok(call(member.apiKey, 'POST', '/api/query_results', { data_source_id: ds, query: lock.query('7 as seven'), max_age: 0 }))
      expect(slow.job.status).toBeLessThan(3)
      jobId = slow.job.id
    } finally {
      await lock.release()
    }
    const done = await eventually(async () => (await ok(call(member.apiKey, 'GET', `/api/jobs/${jobId}`))).job, (job) => job.status >= 3, 'the job')
    expect(done.status).toBe(3)
    const slowResult = await ok(call(member.apiKey, 'GET', `/api/query_results/${done.query_result_id}`))
    expect(slowResult.query_result.data.rows).toEqual([{ seven: 7 }])

    const run = await ok(call(member.apiKey, 'POST', `/api/queries/${q.safe.id}/results`, { parameters: { n: 21 }, max_age: 0 }))
    const resultId = run.query_result?.id ?? (await eventually(async () => (await ok(call(member.apiKey, 'GET', `/api/jobs/${run.job.id}`))).job,
      (job) => job.status >= 3, 'the run')).query_result_id
    const fetched = await ok(call(member.apiKey, 'GET', `/api/query_results/${resultId}`))
    expect(fetched.query_result.data.rows).toEqual([{ doubled: 42, n: 21 }])
    const csv = await call(member.apiKey, 'GET', `/api/queries/${q.safe.id}/results/${resultId}.csv`)
    expect(csv.status).toBe(200)
    expect(await csv.text()).toBe('doubled,n\r\n42,21\r\n')
  })

  it('writes without a CSRF token, as its user may', async () => {
    const created = await ok(call(member.apiKey, 'POST', '/api/queries', { data_source_id: ds, name: 'By script', query: 'select 1' }))
    const saved = await ok(call(member.apiKey, 'POST', `/api/queries/${created.id}`, { name: 'Renamed by script', version: created.version }))
    expect(saved.name).toBe('Renamed by script')
    // but not what the user may not do
    expect((await call(member.apiKey, 'POST', '/api/data_sources', { name: 'X', type: 'pg', options: { dbname: 'x' } })).status).toBe(403)
  })
})

describe("a query's own key", () => {
  it('reads its own query and results, and runs its safe values', async () => {
    expect((await ok(call(q.safe.key, 'GET', `/api/queries/${q.safe.id}`))).id).toBe(q.safe.id)
    const run = await ok(call(q.safe.key, 'POST', `/api/queries/${q.safe.id}/results`, { parameters: { n: 5 } }))
    const result = run.query_result ?? (await ok(call(q.safe.key, 'GET', `/api/queries/${q.safe.id}/results/${(await eventually(
      async () => (await ok(call(q.safe.key, 'GET', `/api/queries/${q.safe.id}/jobs/${run.job.id}`))).job, (job) => job.status >= 3, 'the run')).query_result_id}.json`))).query_result
    expect(result.data.rows).toEqual([{ doubled: 10, n: 5 }])
    expect(result).not.toHaveProperty('query') // the results, not the SQL
    const csv = await call(q.safe.key, 'GET', `/api/queries/${q.safe.id}/results/${result.id}.csv`)
    expect(await csv.text()).toBe('doubled,n\r\n10,5\r\n')
  })

  it('refuses unsafe values, bad values, other queries, other endpoints and every write', async () => {
    const unsafe = await call(q.unsafe.key, 'POST', `/api/queries/${q.unsafe.id}/results`, { parameters: { who: "x'; drop table users; --" } })
    expect(unsafe.status).toBe(403)
    expect((await unsafe.json()).message).toContain('potentially unsafe parameters')
    const bad = await call(q.safe.key, 'POST', `/api/queries/${q.safe.id}/results`, { parameters: { n: '1; select 2' } })
    expect(bad.status).toBe(400)

    const otherResult = (await ok(admin.get(`/api/queries/${q.other.id}`))).latest_query_data_id
    const refusals: [string, string, unknown?][] = [
      ['GET', `/api/queries/${q.other.id}`],
      ['GET', `/api/queries/${q.other.id}/results.json`],
      ['POST', `/api/queries/${q.other.id}/results`, {}],
      ['GET', `/api/queries/${q.safe.id}/results/${otherResult}.json`],
      ['GET', `/api/query_results/${otherResult}`],
      ['GET', '/api/queries'],
      ['GET', '/api/dashboards'],
      ['GET', '/api/session'],
      ['POST', '/api/query_results', { data_source_id: ds, query: 'select 1' }],
      ['POST', `/api/queries/${q.safe.id}`, { name: 'Taken over' }],
      ['POST', `/api/queries/${q.safe.id}/regenerate_api_key`],
      ['POST', '/api/visualizations', { query_id: q.safe.id, type: 'TABLE', name: 'X', options: {} }],
      ['DELETE', `/api/queries/${q.safe.id}`],
    ]
    for (const [method, path, body] of refusals) {
      const res = await call(q.safe.key, method, path, body)
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(401)
      expect(res.status, `${method} ${path}`).toBeLessThan(500)
      expect(await res.text(), `${method} ${path}`).not.toContain('secret')
    }
    expect((await ok(admin.get(`/api/queries/${q.safe.id}`))).name).toBe('Doubled')
  })
})

describe('unknown, revoked and disabled keys', () => {
  it('answer alike', async () => {
    const revoked = q.other.key
    await ok(admin.post(`/api/queries/${q.other.id}/regenerate_api_key`))
    const unknown = 'Z'.repeat(40)
    for (const [method, path] of [['GET', `/api/queries/${q.other.id}/results.json`], ['POST', `/api/queries/${q.other.id}/results`], ['GET', `/api/queries/${q.other.id}`], ['GET', '/api/session']]) {
      const answers = await Promise.all([unknown, revoked, disabled.apiKey].map(async (key) => {
        const res = await call(key, method, path, method === 'POST' ? {} : undefined)
        return `${res.status} ${await res.text()}`
      }))
      expect(answers[0], `${method} ${path}`).toMatch(/^40[14] /)
      expect(new Set(answers).size, `${method} ${path}: ${answers.join(' | ')}`).toBe(1)
    }
  })
})
