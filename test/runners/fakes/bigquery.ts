import { http, HttpResponse } from 'msw'
import { fakeGoogleToken } from './google-token.ts'

/**
 * BigQuery and Google's token endpoint as their references document them: the service-account JWT grant at
 * oauth2.googleapis.com/token (RS256 assertion checked against the key; `invalid_grant` otherwise), jobs.insert
 * (a Job resource; `dryRun` answers statistics only), jobs.getQueryResults (`jobComplete: false` while the job runs,
 * then `schema`, `rows` of `{f: [{v}]}`, `pageToken`, `totalRows`; a failed query's error as `{error: {code,
 * message, errors, status}}`), jobs.cancel, datasets.list (paged). Tokens can be made to expire (401
 * UNAUTHENTICATED), and the service to answer 503 for a while.
 */
export function fakeBigQuery(o: { project: string; tables?: number }) {
  const jobs = new Map<string, { sql: string; location?: string; polls: number; cancelled: boolean; read: boolean; config: Record<string, unknown> }>()
  const requests: { method: string; path: string; body: unknown }[] = []
  const google = fakeGoogleToken({ project: o.project, scope: 'bigquery', requests })
  const { key, valid } = google
  let busy = 0

  const gError = (code: number, status: string, message: string, reason = 'invalid') =>
    HttpResponse.json({ error: { code, message, errors: [{ message, domain: 'global', reason }], status } }, { status: code })

  function refused(request: Request): Response | undefined {
    if (busy > 0) {
      busy--
      return gError(503, 'UNAVAILABLE', 'The service is currently unavailable.', 'backendError')
    }
    if (!valid.has((request.headers.get('authorization') ?? '').replace(/^Bearer /, ''))) {
      return gError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'authError')
    }
  }

  type Schema = { name: string; type: string; mode?: string; fields?: unknown[] }[]
  /** A statement's fields and rows (in the API's encoding), or an error message. */
  function plan(sql: string): { fields: Schema; rows: (offset: number, n: number) => unknown[]; total: number; polls?: number } | string {
    const s = sql.replace(/\s+/g, ' ').trim()
    if (s === 'SELECT 1') return { fields: [{ name: 'f0_', type: 'INTEGER', mode: 'NULLABLE' }], rows: (off) => (off ? [] : [{ f: [{ v: '1' }] }]), total: 1 }
    if (s.startsWith('SELECT id, name, price, active, created, day, tags, address FROM shop.orders')) {
      const rows = [
        { f: [{ v: '1' }, { v: 'first' }, { v: '12.5' }, { v: 'true' }, { v: '1.7145648E9' }, { v: '2024-05-01' }, { v: [{ v: 'a' }, { v: 'b' }] }, { v: { f: [{ v: 'Paris' }, { v: '75001' }] } }] },
        { f: [{ v: '2' }, { v: null }, { v: null }, { v: 'false' }, { v: null }, { v: null }, { v: [] }, { v: null }] },
      ]
      return {
        fields: [{ name: 'id', type: 'INTEGER' }, { name: 'name', type: 'STRING' }, { name: 'price', type: 'FLOAT' }, { name: 'active', type: 'BOOLEAN' },
          { name: 'created', type: 'TIMESTAMP' }, { name: 'day', type: 'DATE' }, { name: 'tags', type: 'STRING', mode: 'REPEATED' },
          { name: 'address', type: 'RECORD', fields: [{ name: 'city', type: 'STRING' }, { name: 'zip', type: 'STRING' }] }],
        rows: (off, n) => rows.slice(off, off + n), total: 2, polls: 1,
      }
    }
    const numbers = /^SELECT n, label FROM shop\.numbers LIMIT (\d+)$/.exec(s)
    if (numbers) {
      const total = Number(numbers[1])
      return {
        fields: [{ name: 'n', type: 'INTEGER' }, { name: 'label', type: 'STRING' }], total,
        rows: (off, n) => Array.from({ length: Math.max(0, Math.min(n, total - off)) }, (_, i) => ({ f: [{ v: String(off + i) }, { v: `row ${off + i}` }] })),
      }
    }
    if (s === 'SELECT slow FROM shop.events') return { fields: [], rows: () => [], total: 0, polls: Infinity }
    const info = /FROM `[\w-]+\.(\w+)`\.INFORMATION_SCHEMA\.COLUMN_FIELD_PATHS/.exec(s)
    if (info) {
      const list: string[][] = info[1] === 'shop' ? [['orders', 'id', 'INT64'], ['orders', 'name', 'STRING'], ['orders', 'address.city', 'STRING']] : []
      const many = info[1] === 'big' ? o.tables ?? 0 : 0
      const row = (i: number) => (i < list.length ? list[i] : [`t${i - list.length}`, 'c', 'INT64'])
      return {
        fields: [{ name: 'table_name', type: 'STRING' }, { name: 'field_path', type: 'STRING' }, { name: 'data_type', type: 'STRING' }], total: list.length + many,
        rows: (off, n) => Array.from({ length: Math.max(0, Math.min(n, list.length + many - off)) }, (_, i) => ({ f: row(off + i).map((v) => ({ v })) })),
      }
    }
    return `Unrecognized name: ${/SELECT (\w+)/.exec(s)?.[1] ?? '?'} at [1:8]`
  }

  const api = 'https://bigquery.googleapis.com/bigquery/v2/projects/:project'
  const handlers = [
    google.handler,
    http.post(`${api}/jobs`, async ({ request, params }) => {
      const body = await request.json() as { jobReference: { jobId?: string; location?: string }; configuration: { dryRun?: boolean; query: { query: string } } }
      requests.push({ method: 'POST', path: new URL(request.url).pathname, body })
      const no = refused(request)
      if (no) return no
      const ref = { projectId: String(params.project), jobId: body.jobReference.jobId, location: body.jobReference.location ?? 'US' }
      if (body.configuration.dryRun) {
        return HttpResponse.json({ kind: 'bigquery#job', jobReference: { projectId: ref.projectId, location: ref.location }, configuration: body.configuration, status: { state: 'DONE' },
          statistics: { creationTime: String(Date.now()), totalBytesProcessed: String(Math.round(123.4 * 1024 * 1024)), query: { totalBytesProcessed: String(Math.round(123.4 * 1024 * 1024)), cacheHit: false } } })
      }
      jobs.set(ref.jobId!, { sql: body.configuration.query.query, location: body.jobReference.location, polls: 0, cancelled: false, read: false, config: body.configuration })
      return HttpResponse.json({ kind: 'bigquery#job', id: `${ref.projectId}:${ref.location}.${ref.jobId}`, jobReference: ref, configuration: body.configuration, status: { state: 'RUNNING' }, statistics: { creationTime: String(Date.now()) } })
    }),
    http.get(`${api}/queries/:jobId`, ({ request, params }) => {
      const url = new URL(request.url)
      requests.push({ method: 'GET', path: url.pathname + url.search, body: undefined })
      const no = refused(request)
      if (no) return no
      const job = jobs.get(String(params.jobId))
      if (!job) return gError(404, 'NOT_FOUND', `Not found: Job ${params.project}:${params.jobId}`, 'notFound')
      const ref = { projectId: String(params.project), jobId: String(params.jobId), location: job.location ?? 'US' }
      if (job.cancelled) return gError(400, 'INVALID_ARGUMENT', 'Job execution was cancelled: User requested cancellation', 'stopped')
      const p = plan(job.sql)
      if (typeof p === 'string') return gError(400, 'INVALID_ARGUMENT', p, 'invalidQuery')
      if (job.polls++ < (p.polls ?? 0)) return HttpResponse.json({ kind: 'bigquery#getQueryResultsResponse', jobReference: ref, jobComplete: false })
      const offset = Number(url.searchParams.get('pageToken') ?? 0)
      const size = Number(url.searchParams.get('maxResults') ?? 100_000)
      const rows = p.rows(offset, size)
      const next = offset + rows.length < p.total ? String(offset + rows.length) : undefined
      if (!next) job.read = true
      return HttpResponse.json({
        kind: 'bigquery#getQueryResultsResponse', schema: { fields: p.fields }, jobReference: ref, totalRows: String(p.total), rows,
        ...(next && { pageToken: next }), totalBytesProcessed: '10485760', jobComplete: true, cacheHit: false,
      })
    }),
    http.post(`${api}/jobs/:jobId/cancel`, ({ request, params }) => {
      requests.push({ method: 'POST', path: new URL(request.url).pathname + new URL(request.url).search, body: undefined })
      const no = refused(request)
      if (no) return no
      const job = jobs.get(String(params.jobId))
      if (job) job.cancelled = true
      return HttpResponse.json({ kind: 'bigquery#jobCancelResponse', job: { jobReference: { projectId: params.project, jobId: params.jobId }, status: { state: 'DONE' } } })
    }),
    http.get(`${api}/datasets`, ({ request }) => {
      const url = new URL(request.url)
      requests.push({ method: 'GET', path: url.pathname + url.search, body: undefined })
      const no = refused(request)
      if (no) return no
      const all = ['shop', ...(o.tables ? ['big'] : [])]
      const at = Number(url.searchParams.get('pageToken') ?? 0)
      const datasets = all.slice(at, at + 1).map((d) => ({ kind: 'bigquery#dataset', id: `${o.project}:${d}`, datasetReference: { datasetId: d, projectId: o.project }, location: 'US' }))
      return HttpResponse.json({ kind: 'bigquery#datasetList', datasets, ...(at + 1 < all.length && { nextPageToken: String(at + 1) }) })
    }),
  ]

  return {
    handlers, requests, key,
    /** The key as the established tool stores it: base64 of the JSON file. */
    keyFile: google.keyFile,
    /** Whether a job whose text contains `part` runs or has rows not yet read, uncancelled. */
    running: (part = '') => [...jobs.values()].some((j) => j.sql.includes(part) && !j.cancelled && !j.read),
    cancelled: (part = '') => [...jobs.values()].some((j) => j.sql.includes(part) && j.cancelled),
    /** Every token issued so far stops working, as an expired one does. */
    expireTokens: () => valid.clear(),
    busyFor(n: number) {
      busy = n
    },
  }
}
