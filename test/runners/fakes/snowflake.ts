import { createHash, createVerify, generateKeyPairSync } from 'node:crypto'
import { http, HttpResponse } from 'msw'

/**
 * Snowflake's SQL API v2 as documented (docs.snowflake.com/en/developer-guide/sql-api/reference): POST
 * /api/v2/statements?async=true answers 202 with a statementHandle (code 333334); GET /api/v2/statements/{handle}
 * answers 202 while it runs, then 200 with resultSetMetaData (rowType, partitionInfo) and the first partition's
 * `data` (every value a string); `?partition=N` the others; 422 with code and message for a failed statement;
 * POST …/cancel. The key-pair JWT is checked: iss `ACCOUNT.USER.SHA256:<public key fingerprint>`, RS256.
 */
export function fakeSnowflake(o: { origin: string; account: string; user: string; partitionRows?: number; tables?: number }) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const fingerprint = `SHA256:${createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64')}`
  const per = o.partitionRows ?? 1_000
  const statements = new Map<string, { sql: string; polls: number; cancelled: boolean; read: number; partitions: number }>()
  let busy = 0
  let seq = 0

  function authorized(request: Request): boolean {
    if (request.headers.get('x-snowflake-authorization-token-type') !== 'KEYPAIR_JWT') return false
    const [h, c, sig] = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '').split('.')
    if (!sig || !createVerify('RSA-SHA256').update(`${h}.${c}`).verify(publicKey, Buffer.from(sig, 'base64url'))) return false
    const claims = JSON.parse(Buffer.from(c, 'base64url').toString())
    const who = `${o.account}.${o.user}`.toUpperCase()
    return claims.iss === `${who}.${fingerprint}` && claims.sub === who && claims.exp > Date.now() / 1000
  }
  function refused(request: Request): Response | undefined {
    if (busy > 0) {
      busy--
      return HttpResponse.json({ code: '390144', message: 'Too many requests.' }, { status: 429 })
    }
    if (!authorized(request)) return HttpResponse.json({ code: '390144', message: 'JWT token is invalid.' }, { status: 401 })
  }

  type Plan = { rowType: { name: string; type: string; scale?: number; nullable: boolean }[]; total: number; rows: (off: number, n: number) => (string | null)[][]; polls?: number } | string
  function plan(sql: string): Plan {
    const s = sql.replace(/\s+/g, ' ').trim()
    const col = (name: string, type: string, scale = 0) => ({ name, type, scale, nullable: true })
    if (s === 'SELECT 1') return { rowType: [col('1', 'fixed')], total: 1, rows: (off) => (off ? [] : [['1']]) }
    if (s === 'SELECT ID, NAME, PRICE, ACTIVE, PLACED, DAY FROM SHOP.PUBLIC.ORDERS') {
      const data = [['1', 'first', '12.50', 'true', '1714564800.000000000', '19844'], ['2', null, null, 'false', null, null]]
      return { rowType: [col('ID', 'fixed'), col('NAME', 'text'), col('PRICE', 'fixed', 2), col('ACTIVE', 'boolean'), col('PLACED', 'timestamp_ntz', 9), col('DAY', 'date')], total: 2, rows: (off, n) => data.slice(off, off + n), polls: 1 }
    }
    const numbers = /^SELECT N, LABEL FROM NUMBERS LIMIT (\d+)$/.exec(s)
    if (numbers) {
      const total = Number(numbers[1])
      return { rowType: [col('N', 'fixed'), col('LABEL', 'text')], total, rows: (off, n) => Array.from({ length: Math.max(0, Math.min(n, total - off)) }, (_, i) => [String(off + i), `row ${off + i}`]) }
    }
    if (s === 'SELECT SLOW FROM EVENTS') return { rowType: [], total: 0, rows: () => [], polls: Infinity }
    if (s.startsWith('SHOW COLUMNS IN DATABASE')) {
      const fixed = [['PUBLIC', 'ORDERS', 'ID'], ['PUBLIC', 'ORDERS', 'NAME'], ['INFORMATION_SCHEMA', 'TABLES', 'TABLE_NAME']]
      const total = fixed.length + (o.tables ?? 0)
      const row = (i: number) => (i < fixed.length ? fixed[i] : ['PUBLIC', `T${i}`, 'C'])
      return { rowType: [col('table_name', 'text'), col('schema_name', 'text'), col('column_name', 'text')], total,
        rows: (off, n) => Array.from({ length: Math.max(0, Math.min(n, total - off)) }, (_, i) => { const [sc, t, c] = row(off + i); return [t, sc, c] }) }
    }
    return `SQL compilation error:\nerror line 1 at position 7\ninvalid identifier '${/SELECT (\w+)/.exec(s)?.[1] ?? '?'}'`
  }

  function result(handle: string, partition: number): Response {
    const st = statements.get(handle)!
    const p = plan(st.sql)
    if (typeof p === 'string') return HttpResponse.json({ code: '000904', message: p, sqlState: '42000', statementHandle: handle }, { status: 422 })
    if (st.cancelled) return HttpResponse.json({ code: '000604', message: 'SQL execution canceled', sqlState: '57014', statementHandle: handle }, { status: 422 })
    if (st.polls++ < (p.polls ?? 0)) return HttpResponse.json({ code: '333334', message: 'Asynchronous execution in progress. Use provided query id to perform query monitoring and management.', statementHandle: handle, statementStatusUrl: `/api/v2/statements/${handle}` }, { status: 202 })
    st.partitions = Math.max(1, Math.ceil(p.total / per))
    const data = p.rows(partition * per, per)
    st.read = Math.max(st.read, partition + 1)
    const partitionInfo = Array.from({ length: st.partitions }, (_, i) => ({ rowCount: Math.min(per, p.total - i * per), uncompressedSize: 1000 }))
    return HttpResponse.json(partition ? { data } : {
      resultSetMetaData: { numRows: p.total, format: 'jsonv2', partitionInfo, rowType: p.rowType },
      data, code: '090001', statementStatusUrl: `/api/v2/statements/${handle}?requestId=x`, requestId: 'x', sqlState: '00000', statementHandle: handle,
      message: 'Statement executed successfully.', createdOn: Date.now(),
    })
  }

  const handlers = [
    http.post(`${o.origin}/api/v2/statements`, async ({ request }) => {
      const body = await request.json() as { statement: string }
      const no = refused(request)
      if (no) return no
      const handle = `01b2c3d4-0000-${String(++seq).padStart(4, '0')}-0000-00000000abcd`
      statements.set(handle, { sql: body.statement, polls: 0, cancelled: false, read: 0, partitions: 1 })
      return HttpResponse.json({ code: '333334', message: 'Asynchronous execution in progress. Use provided query id to perform query monitoring and management.', statementHandle: handle, statementStatusUrl: `/api/v2/statements/${handle}` }, { status: 202 })
    }),
    http.get(`${o.origin}/api/v2/statements/:handle`, ({ request, params }) => {
      const no = refused(request)
      if (no) return no
      if (!statements.has(String(params.handle))) return HttpResponse.json({ code: '333333', message: 'Statement not found' }, { status: 404 })
      return result(String(params.handle), Number(new URL(request.url).searchParams.get('partition') ?? 0))
    }),
    http.post(`${o.origin}/api/v2/statements/:handle/cancel`, ({ request, params }) => {
      const no = refused(request)
      if (no) return no
      const st = statements.get(String(params.handle))
      if (st) st.cancelled = true
      return HttpResponse.json({ code: '000604', message: 'successfully canceled', sqlState: '00000', statementHandle: params.handle })
    }),
  ]
  return {
    handlers,
    privateKeyFile: Buffer.from(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()).toString('base64'),
    running: (part: string) => [...statements.values()].some((s) => s.sql.includes(part) && !s.cancelled && s.polls < 1_000_000 && s.read === 0),
    cancelled: (part: string) => [...statements.values()].some((s) => s.sql.includes(part) && s.cancelled),
    busyFor(n: number) {
      busy = n
    },
  }
}
