import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { outcomeOf, settle } from '../helpers/jobs.ts'
import { eventually } from '../helpers/wait.ts'

let t: TestApp
let admin: Client
let bo: Client
let worker: { stop(): Promise<void> }
let dsId: number

const run = (client: Client, body: Record<string, unknown>) => client.post('/api/query_results', { data_source_id: dsId, max_age: 0, ...body })

/** A result, whether the run answered with it at once or with a job to poll. */
async function resultOf(client: Client, res: Response) {
  const { result, error } = await outcomeOf(client, res)
  expect(error).toBeUndefined()
  return result
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  bo = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  worker = await startWorkerFor(t)
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

describe('running new text', () => {
  it('answers with typed columns and rows: at once for a fast query, or through its job when the machine is slow', async () => {
    const res = await run(bo, { query: "select 1 as n, 'a' as s, 2.5::float8 as f, date '2024-05-01' as d" })
    expect(res.status).toBe(200)
    const r = await resultOf(bo, res)
    expect(r.data.columns.map((c: { name: string; type: string }) => [c.name, c.type])).toEqual([['n', 'integer'], ['s', 'string'], ['f', 'float'], ['d', 'date']])
    expect(r.data.rows).toEqual([{ n: 1, s: 'a', f: 2.5, d: '2024-05-01' }])
    expect(r.data_source_id).toBe(dsId)
    expect(typeof r.runtime).toBe('number')
    expect(new Date(r.retrieved_at).getTime()).toBeGreaterThan(Date.now() - 60_000)
  })

  it('refuses what cannot run, with the texts the browser shows', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ query: 'select 1', data_source_id: null }, 400, 'Please select data source to run this query.'],
      [{ query: '   ' }, 400, "Can't execute empty query."],
      [{ query: 'select {{ a }}, {{ b }}' }, 400, 'missing values for a, b parameters.'],
      [{ query: 'select {{ a }}' }, 400, 'missing value for a parameter.'],
      [{ data_source_id: dsId }, 400, 'Query text is required.'],
      [{ query: 'select 1', max_age: 'old' }, 400, 'max_age'],
      [{ query: 'select 1', data_source_id: 99999 }, 404, 'Not found.'],
    ]
    for (const [body, status, message] of cases) {
      const res = await run(bo, body)
      expect([res.status, (await res.json()).message]).toEqual([status, expect.stringContaining(message)])
    }
    const missing = await (await run(bo, { query: 'select {{ a }}' })).json()
    expect(missing.job).toEqual({ status: 4, error: 'missing value for a parameter.' })
    expect((await new Client(t.app).post('/api/query_results', { query: 'select 1', data_source_id: dsId })).status).toBe(401)
  })

  it('fills parameters given as values', async () => {
    const r = await resultOf(bo, await run(bo, { query: "select '{{ who }}' as who", parameters: { who: 'Ada' } }))
    expect(r.data.rows).toEqual([{ who: 'Ada' }])
  })

  it('takes parameter values from the address\'s p_ arguments when the body has none, the body\'s winning whole', async () => {
    const text = "select '{{ amount }}' as amount"
    const fromUrl = await bo.post('/api/query_results?p_amount=8', { data_source_id: dsId, max_age: 0, query: text })
    expect((await resultOf(bo, fromUrl)).data.rows).toEqual([{ amount: '8' }])
    const nullBody = await bo.post('/api/query_results?p_amount=9', { data_source_id: dsId, max_age: 0, query: text, parameters: null })
    expect((await resultOf(bo, nullBody)).data.rows).toEqual([{ amount: '9' }])
    const fromBody = await bo.post('/api/query_results?p_amount=8', { data_source_id: dsId, max_age: 0, query: text, parameters: { amount: '5' } })
    expect((await resultOf(bo, fromBody)).data.rows).toEqual([{ amount: '5' }])
    const emptyBody = await bo.post('/api/query_results?p_amount=8', { data_source_id: dsId, max_age: 0, query: text, parameters: {} })
    expect([emptyBody.status, (await emptyBody.json()).message]).toEqual([400, expect.stringContaining('missing value for amount')])
  })

  it('reports the engine error on the job', async () => {
    const body = await (await run(bo, { query: 'select * from no_such_table' })).json()
    const job = body.job.status === 4 ? body.job : await settle(bo, body.job)
    expect(job).toMatchObject({ status: 4, query_result_id: null })
    expect(job.error).toContain('no_such_table')
  })

  it('serves a fresh enough cached result unless max_age is 0', async () => {
    const first = await resultOf(bo, await run(bo, { query: 'select random() as r' }))
    const cached = await resultOf(bo, await run(bo, { query: 'select  random()  as r ;', max_age: -1 }))
    expect(cached.id).toBe(first.id)
    const within = await resultOf(bo, await run(bo, { query: 'select random() as r', max_age: 3600 }))
    expect(within.id).toBe(first.id)
    const fresh = await resultOf(bo, await run(bo, { query: 'select random() as r', max_age: 0 }))
    expect(fresh.id).not.toBe(first.id)
  })

  it('adds LIMIT 1000 when asked and cuts results at the row cap, marking them truncated', async () => {
    const limited = await resultOf(bo, await run(bo, { query: 'select g from generate_series(1, 5000) g', apply_auto_limit: true }))
    expect(limited.data.rows).toHaveLength(1000)
    expect(limited.data.truncated ?? false).toBe(false)
    const all = await resultOf(bo, await run(bo, { query: 'select g from generate_series(1, 5000) g' }))
    expect(all.data.rows).toHaveLength(5000)
    expect(all.data.rows.at(-1)).toEqual({ g: 5000 })
  })
})

describe('compression', () => {
  it('gzips large results and downloads for browsers, and leaves small API answers alone', async () => {
    const big = await resultOf(bo, await run(bo, { query: 'select g from generate_series(1, 5000) g' }))
    for (const path of [`/api/query_results/${big.id}`, `/api/query_results/${big.id}.csv`]) {
      const res = await bo.get(path, { 'accept-encoding': 'gzip' })
      expect(res.headers.get('content-encoding')).toBe('gzip')
      expect(res.headers.has('x-sightline-compressible')).toBe(false)
    }
    // browsers accept brotli too, which costs half as much on result data
    const br = await bo.get(`/api/query_results/${big.id}.csv`, { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    const csv = zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString('utf8')
    expect(csv.split('\r\n').slice(0, 3)).toEqual(['g', '1', '2'])
    expect(csv.split('\r\n')).toHaveLength(5002) // header, 5,000 rows, and the empty string after the last line end
    // a script that asks for no compression gets the bytes as they are, without the internal mark
    const plain = await bo.get(`/api/query_results/${big.id}.csv`)
    expect([plain.headers.get('content-encoding'), plain.headers.has('x-sightline-compressible')]).toEqual([null, false])
    const small = await bo.get('/api/session', { 'accept-encoding': 'gzip' })
    expect(small.headers.get('content-encoding')).toBeNull()
    const tiny = await run(bo, { query: 'select 1 as tiny' })
    expect(tiny.headers.get('content-encoding')).toBeNull()
  })

  it('sends zstd to browsers that accept it, and a result of many chunks in every encoding to the same bytes', async () => {
    const large = await resultOf(bo, await run(bo, { query: 'select g, md5(g::text) as h from generate_series(1, 25000) g' }))
    const path = `/api/query_results/${large.id}.csv`
    const plain = Buffer.from(await (await bo.get(path)).arrayBuffer())
    expect(plain.toString('utf8').split('\r\n')).toHaveLength(25_002)
    const decoders = { zstd: zlib.zstdDecompressSync, br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync }
    for (const [accepted, encoding] of [['gzip, deflate, br, zstd', 'zstd'], ['gzip, deflate, br', 'br'], ['gzip', 'gzip']] as const) {
      const res = await bo.get(path, { 'accept-encoding': accepted })
      expect(res.headers.get('content-encoding')).toBe(encoding)
      expect(decoders[encoding](Buffer.from(await res.arrayBuffer()))).toEqual(plain)
    }
  })
})

describe('jobs', () => {
  // each query below waits for a lock the test holds, so it is still running for exactly as long as the test says

  it('gives a query still running a job to poll, then the result by id', async () => {
    const lock = await holdLock(t.db.sql)
    try {
      const body = await (await run(bo, { query: lock.query('42 as answer') })).json()
      expect(body.job.status).toBeLessThan(3)
      await lock.release()
      const job = await settle(bo, body.job)
      expect(job).toMatchObject({ status: 3, error: '' })
      const { query_result: r } = await (await bo.get(`/api/query_results/${job.query_result_id}`)).json()
      expect(r.data.rows[0].answer).toBe(42)
    } finally {
      await lock.release()
    }
  })

  it('holds a poll of a running job for the wait instead of answering at once, and answers with the end', async () => {
    const lock = await holdLock(t.db.sql)
    try {
      const body = await (await run(bo, { query: lock.query('7 as answer') })).json()
      expect(body.job.status).toBeLessThan(3)
      // back-to-back polls while it runs: none answers before the wait is over (never sooner; later is the machine's business)
      const polls = 3
      const started = performance.now()
      for (let i = 0; i < polls; i++) expect((await (await bo.get(`/api/jobs/${body.job.id}`)).json()).job.status).toBeLessThan(3)
      expect(performance.now() - started).toBeGreaterThanOrEqual(polls * (t.deps.config.executionWaitMs - 50))
      await lock.release()
      expect(await settle(bo, body.job)).toMatchObject({ status: 3, error: '' })
    } finally {
      await lock.release()
    }
  })

  it('hands each new run to a listening slot of the worker, which offers itself again once nothing waits', async () => {
    const slots = async () => (await t.db.sql`select count(*)::int as n from execution_slots`)[0].n
    const all = t.deps.config.workerConcurrency
    await eventually(slots, (n) => n === all, 'every slot offered')
    for (let i = 0; i < 3; i++) {
      expect((await resultOf(bo, await run(bo, { query: `select ${i} as handed` }))).data.rows).toEqual([{ handed: i }])
      // the run's last look for waiting work gave its slot back: none is lost to a run that has ended
      await eventually(slots, (n) => n === all, 'the slot offered again')
    }
  })

  it('shares one job between identical runs in flight', async () => {
    const lock = await holdLock(t.db.sql)
    try {
      const text = lock.query('7 as shared')
      const [a, b] = await Promise.all([run(bo, { query: text }), run(admin, { query: text })])
      const [ja, jb] = [(await a.json()).job, (await b.json()).job]
      expect(ja.id).toBe(jb.id)
      await lock.release()
      expect(await settle(bo, ja)).toMatchObject({ status: 3 })
    } finally {
      await lock.release()
    }
  })

  it('cancels a running statement in the database itself', async () => {
    const body = await (await run(bo, { query: 'select pg_sleep(60) as cancel_me' })).json()
    const running = async () => (await t.db.sql`select count(*)::int as n from pg_stat_activity where query like '%pg_sleep(60) as cancel_me%' and state = 'active' and pid <> pg_backend_pid()`)[0].n
    await eventually(running, (n) => n === 1, 'the statement running in the database')
    const cancel = await bo.request('DELETE', `/api/jobs/${body.job.id}`)
    expect(cancel.status).toBe(200)
    const job = await settle(bo, body.job)
    expect(job).toMatchObject({ status: 4, error: 'Query cancelled by user.' })
    await eventually(running, (n) => n === 0, 'the statement gone from the database') // well before its 60 s are up
  })

  it('answers 404 for unknown jobs and keeps others from cancelling', async () => {
    expect((await bo.get('/api/jobs/00000000-0000-0000-0000-000000000000')).status).toBe(404)
    expect((await bo.get('/api/jobs/nope')).status).toBe(404)
    expect((await bo.request('DELETE', '/api/jobs/00000000-0000-0000-0000-000000000000')).status).toBe(404)
  })
})

describe('access', () => {
  it('lets view-only members read results but not run new text', async () => {
    const groups = await (await admin.get('/api/groups')).json()
    const defaultGroup = groups.find((g: { name: string }) => g.name === 'default')
    const r = await resultOf(admin, await run(admin, { query: 'select 99 as readable' }))
    await admin.post(`/api/groups/${defaultGroup.id}/data_sources/${dsId}`, { view_only: true })
    try {
      const refused = await run(bo, { query: 'select 2' })
      expect(refused.status).toBe(403)
      expect((await refused.json()).message).toBe("You don't have permission to run queries with this data source.")
      expect((await bo.get(`/api/query_results/${r.id}`)).status).toBe(200)
    } finally {
      await admin.post(`/api/groups/${defaultGroup.id}/data_sources/${dsId}`, { view_only: false })
    }
  })
})
