import { http, HttpResponse } from 'msw'
import { signV4 } from '../../../src/runners/index.ts'

/**
 * Athena and Glue as their API references document them (JSON 1.1, `X-Amz-Target`): StartQueryExecution →
 * QueryExecutionId; GetQueryExecution → Status.State QUEUED/RUNNING/SUCCEEDED/FAILED/CANCELLED (with
 * StateChangeReason); GetQueryResults → ResultSet.Rows of Data[{VarCharValue}] (a SELECT's first row the names),
 * ResultSetMetadata.ColumnInfo, NextToken; StopQueryExecution; Glue GetDatabases / GetTables with NextToken. Errors
 * as `{__type, Message}`. Requests must carry a Signature Version 4 the fake can reproduce with the secret key.
 */
export function fakeAthena(o: {
  region: string; accessKeyId: string; secretAccessKey: string; tables?: number
  /** Temporary credentials STS issued (fakes/sts.ts): requests signed with them must carry their session token. */
  temporary?: (accessKeyId: string) => { secretAccessKey: string; sessionToken: string } | undefined
}) {
  const queries = new Map<string, { sql: string; polls: number; stopped: boolean; done: boolean }>()
  const signers: { accessKeyId: string; sessionToken?: string; service: string }[] = []
  let busy = 0
  let expired = false
  let seq = 0

  async function verify(request: Request, service: string): Promise<{ body: Record<string, unknown>; target: string } | Response> {
    const text = await request.text()
    if (busy > 0) {
      busy--
      return HttpResponse.json({ __type: 'TooManyRequestsException', Message: 'Rate exceeded' }, { status: 429 })
    }
    const date = request.headers.get('x-amz-date') ?? ''
    const target = request.headers.get('x-amz-target') ?? ''
    const keyId = /Credential=([^/]+)\//.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
    const temporary = keyId === o.accessKeyId ? undefined : o.temporary?.(keyId)
    const token = request.headers.get('x-amz-security-token') ?? undefined
    signers.push({ accessKeyId: keyId, sessionToken: token, service })
    if (temporary && token !== temporary.sessionToken) {
      return HttpResponse.json({ __type: 'com.amazon.coral.service#UnrecognizedClientException', Message: 'The security token included in the request is invalid.' }, { status: 403 })
    }
    const credentials = temporary ? { accessKeyId: keyId, ...temporary } : { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey }
    const expected = signV4({ method: 'POST', url: new URL(request.url), body: text, region: o.region, service, amzDate: date,
      credentials, headers: { 'content-type': request.headers.get('content-type') ?? '', 'x-amz-target': target } })
    if (expected.authorization !== request.headers.get('authorization')) {
      return HttpResponse.json({ __type: 'com.amazon.coral.service#InvalidSignatureException', Message: 'The request signature we calculated does not match the signature you provided.' }, { status: 403 })
    }
    if (expired) return HttpResponse.json({ __type: 'com.amazon.coral.service#ExpiredTokenException', Message: 'The security token included in the request is expired' }, { status: 400 })
    return { body: JSON.parse(text), target }
  }

  type Plan = { columns: [string, string][]; total: number; row: (i: number) => (string | undefined)[]; polls?: number } | string
  function plan(sql: string): Plan {
    const s = sql.replace(/\s+/g, ' ').trim()
    if (s === 'SELECT 1') return { columns: [['_col0', 'integer']], total: 1, row: () => ['1'] }
    if (s === 'SELECT id, name, price, active, placed, day FROM orders') {
      const rows = [['1', 'first', '12.5', 'true', '2024-05-01 12:00:00.000', '2024-05-01'], ['2', undefined, undefined, 'false', undefined, undefined]]
      return { columns: [['id', 'bigint'], ['name', 'varchar'], ['price', 'double'], ['active', 'boolean'], ['placed', 'timestamp'], ['day', 'date']], total: 2, row: (i) => rows[i], polls: 2 }
    }
    const numbers = /^SELECT n, label FROM numbers LIMIT (\d+)$/.exec(s)
    if (numbers) return { columns: [['n', 'bigint'], ['label', 'varchar']], total: Number(numbers[1]), row: (i) => [String(i), `row ${i}`] }
    if (s === 'SELECT slow FROM events') return { columns: [], total: 0, row: () => [], polls: Infinity }
    return `line 1:8: Column '${/SELECT (\w+)/.exec(s)?.[1] ?? '?'}' cannot be resolved`
  }

  const athena = async (body: Record<string, unknown>, target: string): Promise<Response> => {
    const op = target.split('.').pop()
    if (op === 'StartQueryExecution') {
      const id = `a1b2c3d4-5678-90ab-cdef-${String(++seq).padStart(12, '0')}`
      queries.set(id, { sql: String(body.QueryString), polls: 0, stopped: false, done: false })
      return HttpResponse.json({ QueryExecutionId: id })
    }
    const q = queries.get(String(body.QueryExecutionId))
    if (!q) return HttpResponse.json({ __type: 'InvalidRequestException', Message: `QueryExecution ${String(body.QueryExecutionId)} was not found` }, { status: 400 })
    const p = plan(q.sql)
    if (op === 'StopQueryExecution') {
      q.stopped = true
      return HttpResponse.json({})
    }
    if (op === 'GetQueryExecution') {
      const state = q.stopped ? 'CANCELLED' : typeof p === 'string' ? 'FAILED' : q.polls++ < (p.polls ?? 0) ? 'RUNNING' : 'SUCCEEDED'
      if (state === 'SUCCEEDED' && typeof p !== 'string' && p.total === 0) q.done = true
      return HttpResponse.json({ QueryExecution: { QueryExecutionId: body.QueryExecutionId, Query: q.sql, StatementType: 'DML',
        Status: { State: state, ...(typeof p === 'string' && { StateChangeReason: `COLUMN_NOT_FOUND: ${p}` }), ...(q.stopped && { StateChangeReason: 'Query cancelled by user' }), SubmissionDateTime: 1714564800 },
        Statistics: { EngineExecutionTimeInMillis: 512, DataScannedInBytes: 1048576 }, WorkGroup: 'primary' } })
    }
    if (op === 'GetQueryResults' && typeof p !== 'string') {
      const from = Number(body.NextToken ?? -1)
      const size = Number(body.MaxResults ?? 1000)
      const rows: { Data: { VarCharValue?: string }[] }[] = []
      let i = from
      if (from === -1) {
        rows.push({ Data: p.columns.map(([n]) => ({ VarCharValue: n })) })
        i = 0
      }
      for (; rows.length < size && i < p.total; i++) rows.push({ Data: p.row(i).map((v) => (v === undefined ? {} : { VarCharValue: v })) })
      if (i >= p.total) q.done = true
      return HttpResponse.json({ UpdateCount: 0, ResultSet: { Rows: rows, ResultSetMetadata: { ColumnInfo: p.columns.map(([Name, Type]) => ({ CatalogName: 'hive', Name, Label: Name, Type, Precision: 0, Scale: 0, Nullable: 'UNKNOWN', CaseSensitive: false })) } },
        ...(i < p.total && { NextToken: String(i) }) })
    }
    return HttpResponse.json({ __type: 'InvalidRequestException', Message: 'unsupported' }, { status: 400 })
  }

  let tableList: object[] | undefined
  let tableCount = o.tables ?? 0
  const glue = (body: Record<string, unknown>, target: string): Response => {
    const at = Number(body.NextToken ?? 0)
    if (target === 'AWSGlue.GetDatabases') return HttpResponse.json({ DatabaseList: [{ Name: 'sales', CatalogId: '123456789012' }] })
    const all = (tableList ??= [
      { Name: 'orders', DatabaseName: 'sales', StorageDescriptor: { Columns: [{ Name: 'id', Type: 'bigint' }, { Name: 'name', Type: 'string' }], Location: 's3://b/orders/' }, PartitionKeys: [{ Name: 'dt', Type: 'string' }] },
      { Name: 'a_link', DatabaseName: 'sales', TableType: 'EXTERNAL_TABLE' },
      ...Array.from({ length: tableCount }, (_, i) => ({ Name: `t${i}`, DatabaseName: 'sales', StorageDescriptor: { Columns: [{ Name: 'c', Type: 'int' }] } })),
    ])
    const page = all.slice(at, at + 100)
    return HttpResponse.json({ TableList: page, ...(at + 100 < all.length && { NextToken: String(at + 100) }) })
  }

  const handlers = [
    http.post(`https://athena.${o.region}.amazonaws.com/`, async ({ request }) => {
      const v = await verify(request, 'athena')
      return v instanceof Response ? v : athena(v.body, v.target)
    }),
    http.post(`https://glue.${o.region}.amazonaws.com/`, async ({ request }) => {
      const v = await verify(request, 'glue')
      return v instanceof Response ? v : glue(v.body, v.target)
    }),
  ]
  return {
    handlers,
    /** Who signed each request: the access key id, the session token sent with it, and the service. */
    signers,
    running: (part: string) => [...queries.values()].some((q) => q.sql.includes(part) && !q.stopped && !q.done),
    stopped: (part: string) => [...queries.values()].some((q) => q.sql.includes(part) && q.stopped),
    expire: (yes: boolean) => (expired = yes),
    busyFor: (n: number) => (busy = n),
    /** Sets how many plain tables Glue lists beside `orders` and `a_link`. */
    tables: (n: number) => {
      tableCount = n
      tableList = undefined
    },
  }
}
