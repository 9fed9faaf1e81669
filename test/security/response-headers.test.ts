import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'

/**
 * Every answer carries the browser hardening headers, whoever built it: pages and JSON, but also the answers built as
 * raw Responses outside Hono (a run's streamed result, result downloads), compressed or not, and static assets. A
 * result is data someone else may have written: opened in a browser it must never be sniffed into HTML, framed, or
 * run as a page of Sightline.
 */

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> } | undefined
let queryId: number
let queryKey: string
let resultId: number

const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  const ds = await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()
  // a value a browser would happily sniff as HTML and run, if it were let
  const q = await (await admin.post('/api/queries', {
    data_source_id: ds.id, name: 'Sniff me', query: "select '<html><script>alert(1)</script>' as html, 1 as n",
  })).json()
  queryId = q.id
  queryKey = q.api_key
  worker = await startWorkerFor(t)
  const { result } = await outcomeOf(admin, await admin.post(`/api/queries/${queryId}/results`, { max_age: 0 }))
  resultId = result.id
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

function expectHardened(res: Response, what: string) {
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff')
  expect(res.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin')
  expect(res.headers.get('x-frame-options'), what).toBe('DENY')
  expect(res.headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'")
}

function expectDownload(res: Response, what: string) {
  expect(res.status, what).toBe(200)
  expectHardened(res, what)
  expect(res.headers.get('content-security-policy'), what).toBe(RESOURCE_CSP)
  expect(res.headers.get('content-disposition'), what).toMatch(/^attachment;/)
}

describe('result downloads', () => {
  it.each(['csv', 'tsv', 'xlsx', 'json'])('a result as %s, by id, is an attachment with the hardening headers', async (format) => {
    expectDownload(await admin.get(`/api/query_results/${resultId}.${format}`), `query_results ${format}`)
    expectDownload(await admin.get(`/api/queries/${queryId}/results/${resultId}.${format}`), `queries results/id ${format}`)
    expectDownload(await admin.get(`/api/queries/${queryId}/results.${format}`), `latest ${format}`)
  })

  it('keeps them when the download is compressed for a browser', async () => {
    for (const encoding of ['gzip', 'gzip, deflate, br']) {
      const res = await admin.get(`/api/query_results/${resultId}.csv`, { 'accept-encoding': encoding })
      expect(res.headers.get('content-encoding')).toMatch(/gzip|br/)
      expectDownload(res, `csv, ${encoding}`)
    }
  })

  it('keeps them for a download by the query\'s own API key', async () => {
    const res = await new Client(t.app).get(`/api/queries/${queryId}/results.csv?api_key=${queryKey}`)
    expectDownload(res, 'csv by query key')
  })
})

describe('other answers', () => {
  it('a run that answers with its result, streamed', async () => {
    const res = await admin.post(`/api/queries/${queryId}/results`, { max_age: 600 })
    expect(res.status).toBe(200)
    expectHardened(res, 'run answer')
    expect(res.headers.get('content-security-policy')).toBe(RESOURCE_CSP)
    expect((await res.json()).query_result.id).toBe(resultId)
  })

  it('JSON answers and JSON errors', async () => {
    for (const [client, path] of [[admin, '/api/session'], [new Client(t.app), '/api/session'], [admin, '/api/queries/999999']] as const) {
      const res = await client.get(path)
      expectHardened(res, path)
      expect(res.headers.get('content-security-policy'), path).toBe(RESOURCE_CSP)
    }
  })

  it('static assets', async () => {
    const res = await new Client(t.app).get('/static/favicon.svg')
    expect(res.status).toBe(200)
    expectHardened(res, 'favicon')
    expect(res.headers.get('content-security-policy')).toBe(RESOURCE_CSP)
  })

  it('pages keep the page policy, with its script nonce', async () => {
    const res = await admin.get('/')
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expectHardened(res, 'home page')
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[^']+'/)
  })
})
