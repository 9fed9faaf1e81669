import { http, HttpResponse } from 'msw'

/**
 * An Elasticsearch / OpenSearch node as its REST reference documents it: `_cluster/health`, `_mappings` (typeless,
 * 7+), `<index>/_search` (hits with `_source`, or `aggregations` with buckets), the X-Pack SQL API (`POST
 * /_sql?format=json`: `columns` and `rows` on the first page, `rows` on later ones, a `cursor` while more remain,
 * `POST /_sql/close`), and the Open Distro / OpenSearch SQL plugin's JDBC format (`schema`, `datarows`, `total`,
 * `size`, `status`, `cursor`; `/_opendistro/_sql/close`). Errors in each one's documented shape; 429 with
 * `es_rejected_execution_exception` when busy; 401 `security_exception` for wrong credentials.
 */
export interface FakeEsOptions {
  origin: string
  password?: string
  /** More indices in the mappings (a cluster of many indices). */
  indices?: number
}

const BOOKS = [
  { author: 'Frank Herbert', name: 'Dune', page_count: 604, release_date: '1965-06-01T00:00:00.000Z', rating: 4.5, available: true },
  { author: 'Dan Simmons', name: 'Hyperion', page_count: 482, release_date: '1989-05-26T00:00:00.000Z', rating: 4.25, available: false },
]
const SIMPLE = 'SELECT author, name, page_count, release_date, rating, available FROM library'

export function fakeElasticsearch(o: FakeEsOptions) {
  /** Open cursors: the statement and how many rows it has sent. */
  const cursors = new Map<string, { sql: string; sent: number; total: number; closed: boolean }>()
  const requests: { method: string; path: string; body: unknown }[] = []
  let busy = 0
  let seq = 0

  const esError = (status: number, type: string, reason: string) =>
    HttpResponse.json({ error: { root_cause: [{ type, reason }], type, reason }, status }, { status })

  function refused(request: Request): Response | undefined {
    if (busy > 0) {
      busy--
      return esError(429, 'es_rejected_execution_exception', 'rejected execution of coordinating operation [shard_detail=[], coordinating_and_primary_bytes=0]')
    }
    if (o.password) {
      const [user, password] = Buffer.from((request.headers.get('authorization') ?? '').replace(/^Basic /, ''), 'base64').toString().split(':')
      if (password !== o.password) return esError(401, 'security_exception', `unable to authenticate user [${user ?? ''}] for REST request [${new URL(request.url).pathname}]`)
    }
  }

  async function read(request: Request) {
    const text = await request.text()
    const body = text ? JSON.parse(text) : undefined
    requests.push({ method: request.method, path: new URL(request.url).pathname + new URL(request.url).search, body })
    return body as Record<string, unknown> | undefined
  }

  /** A statement's columns and its rows from `offset`, at most `size`; an error message for one it cannot run. */
  function statement(sql: string, offset: number, size: number): { columns: { name: string; type: string }[]; rows: unknown[][]; total: number } | string {
    const s = sql.replace(/\s+/g, ' ').trim()
    if (s === 'SELECT 1') return { columns: [{ name: '1', type: 'integer' }], rows: offset ? [] : [[1]], total: 1 }
    if (s === SIMPLE) {
      return {
        columns: [{ name: 'author', type: 'text' }, { name: 'name', type: 'text' }, { name: 'page_count', type: 'short' }, { name: 'release_date', type: 'datetime' }, { name: 'rating', type: 'float' }, { name: 'available', type: 'boolean' }],
        rows: BOOKS.slice(offset, offset + size).map((b) => Object.values(b)), total: BOOKS.length,
      }
    }
    const numbers = /^SELECT n, label FROM numbers LIMIT (\d+)$/.exec(s)
    if (numbers) {
      const total = Number(numbers[1])
      const n = Math.max(0, Math.min(size, total - offset))
      return { columns: [{ name: 'n', type: 'long' }, { name: 'label', type: 'keyword' }], rows: Array.from({ length: n }, (_, i) => [offset + i, `row ${offset + i}`]), total }
    }
    return /SELECT (\w+)/.exec(s)?.[1] ?? '?'
  }

  /** The first page or the next one of a statement, with a cursor while rows remain. */
  function page(body: Record<string, unknown>): { columns?: { name: string; type: string }[]; rows: unknown[][]; cursor?: string; total: number } | string {
    if (typeof body.cursor === 'string') {
      const c = cursors.get(body.cursor)
      if (!c || c.closed) return 'cursor'
      const answer = statement(c.sql, c.sent, 1_000) as Exclude<ReturnType<typeof statement>, string>
      c.sent += answer.rows.length
      cursors.delete(body.cursor)
      const more = c.sent < c.total
      const next = more ? `c${++seq}` : undefined
      if (next) cursors.set(next, c)
      else c.closed = true
      return { rows: answer.rows, cursor: next, total: c.total }
    }
    const size = Number(body.fetch_size ?? 1_000)
    const answer = statement(String(body.query), 0, size)
    if (typeof answer === 'string') return answer
    const state = { sql: String(body.query), sent: answer.rows.length, total: answer.total, closed: false }
    const cursor = state.sent < state.total ? `c${++seq}` : undefined
    if (cursor) cursors.set(cursor, state)
    return { ...answer, cursor }
  }

  const closeCursor = (body: Record<string, unknown> | undefined) => {
    const c = cursors.get(String(body?.cursor))
    if (c) c.closed = true
    cursors.delete(String(body?.cursor))
    return HttpResponse.json({ succeeded: !!c })
  }

  const handlers = [
    http.get(`${o.origin}/_cluster/health`, async ({ request }) => {
      await read(request)
      return refused(request) ?? HttpResponse.json({ cluster_name: 'docs', status: 'green', timed_out: false, number_of_nodes: 1, number_of_data_nodes: 1, active_primary_shards: 2, active_shards: 2 })
    }),
    http.get(`${o.origin}/_mappings`, async ({ request }) => {
      await read(request)
      const no = refused(request)
      if (no) return no
      const mappings: Record<string, unknown> = {
        library: { mappings: { properties: { author: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } }, name: { type: 'text' }, page_count: { type: 'short' }, release_date: { type: 'date' }, publisher: { properties: { name: { type: 'keyword' }, city: { type: 'keyword' } } } } } },
        '.kibana_1': { mappings: { properties: { type: { type: 'keyword' } } } },
      }
      for (let i = 0; i < (o.indices ?? 0); i++) mappings[`logs-${i}`] = { mappings: { properties: { message: { type: 'text' } } } }
      return HttpResponse.json(mappings)
    }),
    http.post(`${o.origin}/_sql/close`, async ({ request }) => closeCursor(await read(request))),
    http.post(`${o.origin}/_opendistro/_sql/close`, async ({ request }) => closeCursor(await read(request))),
    http.post(`${o.origin}/_sql`, async ({ request }) => {
      const body = (await read(request)) ?? {}
      const no = refused(request)
      if (no) return no
      const answer = page(body)
      if (answer === 'cursor') return esError(404, 'search_context_missing_exception', 'No search context found for id [1]')
      if (typeof answer === 'string') return esError(400, 'verification_exception', `Found 1 problem\nline 1:8: Unknown column [${answer}]`)
      return HttpResponse.json({ ...(answer.columns && { columns: answer.columns }), rows: answer.rows, ...(answer.cursor && { cursor: answer.cursor }) })
    }),
    http.post(`${o.origin}/_opendistro/_sql`, async ({ request }) => {
      const body = (await read(request)) ?? {}
      const no = refused(request)
      if (no) return no
      const answer = page(body)
      if (typeof answer === 'string') {
        return HttpResponse.json({ error: { reason: 'Invalid SQL query', details: `Field [${answer}] cannot be found or used here.`, type: 'SemanticAnalysisException' }, status: 400 }, { status: 400 })
      }
      return HttpResponse.json({
        ...(answer.columns && { schema: answer.columns }), datarows: answer.rows, total: answer.total, size: answer.rows.length, status: 200,
        ...(answer.cursor && { cursor: answer.cursor }),
      })
    }),
    http.post(`${o.origin}/:index/_search`, async ({ request, params }) => {
      const body = (await read(request)) ?? {}
      const no = refused(request)
      if (no) return no
      if (params.index !== 'library') return esError(404, 'index_not_found_exception', `no such index [${String(params.index)}]`)
      const shards = { total: 1, successful: 1, skipped: 0, failed: 0 }
      const hits = { total: { value: BOOKS.length, relation: 'eq' }, max_score: 1, hits: BOOKS.slice(0, Number(body.size ?? 10)).map((b, i) => ({ _index: 'library', _id: String(i + 1), _score: 1, _source: b })) }
      if (body.aggs || body.aggregations) {
        return HttpResponse.json({ took: 3, timed_out: false, _shards: shards, hits: { ...hits, hits: [] }, aggregations: {
          by_author: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [
            { key: 'Frank Herbert', doc_count: 1, avg_pages: { value: 604 }, by_year: { buckets: [{ key_as_string: '1965-01-01T00:00:00.000Z', key: -157766400000, doc_count: 1 }] } },
            { key: 'Dan Simmons', doc_count: 1, avg_pages: { value: 482 }, by_year: { buckets: [{ key_as_string: '1989-01-01T00:00:00.000Z', key: 599616000000, doc_count: 1 }] } },
          ] },
        } })
      }
      return HttpResponse.json({ took: 2, timed_out: false, _shards: shards, hits })
    }),
  ]

  return {
    handlers,
    requests,
    /** Whether a cursor of a statement containing `part` is still open. */
    open: (part = '') => [...cursors.values()].some((c) => c.sql.includes(part) && !c.closed),
    busyFor(n: number) {
      busy = n
    },
  }
}
export { SIMPLE as ES_SIMPLE }
