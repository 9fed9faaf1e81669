import { http, HttpResponse } from 'msw'

/**
 * A Trino (or Presto) coordinator as its client protocol documents it (trino.io/docs/current/develop/client-protocol.html):
 * POST /v1/statement answers QUEUED with a `nextUri`, each GET of a `nextUri` answers the next part of the rows
 * (`columns` with the first data, `data` as row arrays), the last one has no `nextUri`; a failed query answers an
 * `error` (QueryError: message, errorCode, errorName, errorType, failureInfo); DELETE on a `nextUri` ends the
 * query (204). 502/503/504 from a gateway mean "ask again". Statements it knows are in `answer` below.
 */
export interface FakeTrinoOptions {
  origin: string
  /** `X-Trino-` or `X-Presto-`. */
  prefix?: string
  /** Rows per answer of a large query. */
  pageRows?: number
  /** Tables in the `tpch.sf1` schema listed by information_schema (a schema with many tables). */
  tables?: number
  /** Basic credentials the coordinator accepts, when set. */
  password?: string
}

interface Column { name: string; type: string; typeSignature: { rawType: string; arguments: unknown[] } }
interface Running { sql: string; token: number; done: boolean; deleted: boolean; columns: Column[]; pages: () => unknown[][] | null; error?: object }

const column = (name: string, type: string): Column => ({ name, type, typeSignature: { rawType: type.replace(/\(.*$/, ''), arguments: [] } })

export function fakeTrino(o: FakeTrinoOptions) {
  const prefix = o.prefix ?? 'X-Trino-'
  const pageRows = o.pageRows ?? 1_000
  const statements = new Map<string, Running>()
  /** Every request, for the tests to read what was asked. */
  const requests: { method: string; url: string; headers: Record<string, string>; body: string }[] = []
  let busy = 0
  let seq = 0

  /** The statements this coordinator knows. */
  function plan(sql: string): Pick<Running, 'columns' | 'pages' | 'error'> {
    const once = (rows: unknown[][]) => {
      let sent = false
      return () => (sent ? null : ((sent = true), rows))
    }
    const s = sql.replace(/\s+/g, ' ').trim()
    if (s === 'SELECT 1') return { columns: [column('_col0', 'integer')], pages: once([[1]]) }
    if (s === 'SHOW CATALOGS') return { columns: [column('Catalog', 'varchar(6)')], pages: once([['system'], ['tpch']]) }
    if (s.startsWith('SELECT id, name, price, total, active, placed, day FROM tpch.sf1.orders')) {
      return {
        columns: [column('id', 'bigint'), column('name', 'varchar(25)'), column('price', 'double'), column('total', 'decimal(12,2)'),
          column('active', 'boolean'), column('placed', 'timestamp(3)'), column('day', 'date')],
        pages: once([[1, 'first', 12.5, '1234.50', true, '2024-05-01 12:30:00.000', '2024-05-01'], [2, null, null, null, false, null, null]]),
      }
    }
    const numbers = /^SELECT n, label FROM tpch\.sf1\.numbers LIMIT (\d+)$/.exec(s)
    if (numbers) {
      const total = Number(numbers[1])
      let sent = 0
      return {
        columns: [column('n', 'bigint'), column('label', 'varchar')],
        pages: () => {
          if (sent >= total) return null
          const rows = Array.from({ length: Math.min(pageRows, total - sent) }, (_, i) => [sent + i, `row ${sent + i}`])
          sent += rows.length
          return rows
        },
      }
    }
    const info = /FROM "(\w+)"\.information_schema\.columns/.exec(s)
    if (info) {
      const rows: unknown[][] = []
      if (info[1] === 'tpch') {
        rows.push(['sf1', 'orders', 'id', 'bigint'], ['sf1', 'orders', 'name', 'varchar(25)'], ['sf1', 'numbers', 'n', 'bigint'])
        for (let i = 0; i < (o.tables ?? 0); i++) rows.push(['sf1', `t${i}`, 'c', 'integer'])
      }
      const pages = rows.length ? Array.from({ length: Math.ceil(rows.length / pageRows) }, (_, i) => rows.slice(i * pageRows, (i + 1) * pageRows)) : [[]]
      return { columns: ['table_schema', 'table_name', 'column_name', 'data_type'].map((n) => column(n, 'varchar')), pages: () => pages.shift() ?? null }
    }
    const message = `line 1:8: Column '${/SELECT (\w+)/.exec(s)?.[1] ?? '?'}' cannot be resolved`
    return {
      columns: [], pages: () => null,
      error: { message, errorCode: 47, errorName: 'COLUMN_NOT_FOUND', errorType: 'USER_ERROR', errorLocation: { lineNumber: 1, columnNumber: 8 },
        failureInfo: { type: 'io.trino.spi.TrinoException', message, suppressed: [], stack: [] } },
    }
  }

  const uri = (id: string, phase: 'queued' | 'executing', token: number) => `${o.origin}/v1/statement/${phase}/${id}/y${token}/${token}`
  const stats = (state: string) => ({ state, queued: state === 'QUEUED', scheduled: state !== 'QUEUED', nodes: 1, totalSplits: 0 })

  function record(request: Request, body: string) {
    requests.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body })
  }

  function refused(request: Request): Response | undefined {
    if (busy > 0) {
      busy--
      return new HttpResponse('Service Unavailable', { status: 503, headers: { 'content-type': 'text/plain' } })
    }
    if (o.password) {
      // every request carries the credentials; the user name is only in the first one's headers
      const [, password] = Buffer.from((request.headers.get('authorization') ?? '').replace(/^Basic /, ''), 'base64').toString().split(':')
      if (password !== o.password) {
        return new HttpResponse('Unauthorized', { status: 401, headers: { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="Trino"' } })
      }
    }
  }

  const handlers = [
    http.post(`${o.origin}/v1/statement`, async ({ request }) => {
      const sql = await request.text()
      record(request, sql)
      const no = refused(request)
      if (no) return no
      if (!request.headers.get(`${prefix}User`)) return new HttpResponse(`${prefix}User header is required`, { status: 400, headers: { 'content-type': 'text/plain' } })
      const id = `20240501_120000_${String(++seq).padStart(5, '0')}_abcde`
      statements.set(id, { sql, token: 0, done: false, deleted: false, ...plan(sql) })
      return HttpResponse.json({ id, infoUri: `${o.origin}/ui/query.html?${id}`, nextUri: uri(id, 'queued', 1), stats: stats('QUEUED'), warnings: [] })
    }),
    http.get(`${o.origin}/v1/statement/:phase/:id/:slug/:token`, ({ request, params }) => {
      record(request, '')
      const no = refused(request)
      if (no) return no
      const st = statements.get(String(params.id))
      if (!st || st.deleted) return new HttpResponse('Query not found', { status: 410, headers: { 'content-type': 'text/plain' } })
      const id = String(params.id)
      const base = { id, infoUri: `${o.origin}/ui/query.html?${id}` }
      if (st.error) {
        st.done = true
        return HttpResponse.json({ ...base, error: st.error, stats: stats('FAILED'), warnings: [] })
      }
      st.token++
      const data = st.pages()
      const more = data !== null && (st.token === 1 || data.length > 0)
      if (!more) st.done = true
      return HttpResponse.json({
        ...base,
        ...(more && { partialCancelUri: `${o.origin}/v1/stage/${id}.0`, nextUri: uri(id, 'executing', st.token + 1) }),
        columns: st.columns,
        ...(data?.length && { data }),
        stats: stats(more ? 'RUNNING' : 'FINISHED'),
        warnings: [],
      })
    }),
    http.delete(`${o.origin}/v1/statement/:phase/:id/:slug/:token`, ({ request, params }) => {
      record(request, '')
      const st = statements.get(String(params.id))
      if (st) st.deleted = true
      return new HttpResponse(null, { status: 204 })
    }),
  ]

  return {
    handlers,
    requests,
    /** Whether a statement whose text contains `part` is still running (neither finished nor deleted). */
    running: (part = '') => [...statements.values()].some((s) => s.sql.includes(part) && !s.done && !s.deleted),
    deleted: (part = '') => [...statements.values()].some((s) => s.sql.includes(part) && s.deleted),
    /** The next `n` requests are answered 503, as a gateway in front of a busy coordinator does. */
    busyFor(n: number) {
      busy = n
    },
  }
}
