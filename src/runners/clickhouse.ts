import crypto from 'node:crypto'
import { BATCH_BYTES, BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, num, str } from './common.ts'
import { makeColumns } from './column-types.ts'
import { endOrphanQueries, newRunId, statementQueryId } from './clickhouse-orphan.ts'
import { jsonLines, LineTooLong, type LineCaps } from './json-lines.ts'
import { RunnerError, type Cell, type ColumnType, type RunCuts, type Runner, type RunnerConfig, type RunOptions, type TableSchema } from './runner.ts'
import { splitStatements } from './statements.ts'
import { mayWrite, WRITES } from './write-guard.ts'

/*
 * Plain fetch to ClickHouse's HTTP interface. Rows stream as one JSON array per line: the
 * JSONCompactEachRowWithNamesAndTypes format where the server has it, else JSONCompact, whose data section ClickHouse
 * also writes one row per line (servers before 21.x). Every statement carries a query_id, so a cancel aborts the
 * request and runs `KILL QUERY WHERE query_id = …`; the time limit is the server's own max_execution_time.
 */

const EACH_ROW = 'JSONCompactEachRowWithNamesAndTypes'
const COMPACT = 'JSONCompact'
/** Servers (by URL) known to lack EACH_ROW. */
const oldServers = new Set<string>()

const CODE = /^Code: (\d+)/
const TIMEOUT_CODES = new Set([159, 160]) // TIMEOUT_EXCEEDED, TOO_SLOW
const CONNECTION_CODES = new Set([81, 192, 193, 194, 195, 516]) // unknown database/user, wrong password, auth failed

class ClickHouseError extends Error {
  constructor(message: string, readonly code: number | null) {
    super(message)
  }
}

/** ClickHouse types → column types, and the conversion of the JSON value (64-bit integers arrive quoted). */
function typeOf(raw: string): [ColumnType, ((v: Cell) => Cell) | null] {
  const t = raw.replace(/^(Nullable|LowCardinality)\((.*)\)$/, '$2').replace(/^(Nullable|LowCardinality)\((.*)\)$/, '$2')
  if (/^U?Int\d+$/.test(t)) return ['integer', (v) => (typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : v)]
  if (/^(Float\d+|Decimal)/.test(t)) return ['float', (v) => (typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : v)]
  if (/^DateTime/.test(t)) return ['datetime', (v) => (typeof v === 'string' ? v.replace(' ', 'T') : v)]
  if (/^Date(32)?$/.test(t)) return ['date', null]
  if (t === 'Bool') return ['boolean', null]
  return ['string', null]
}

function base(config: RunnerConfig): URL {
  const url = new URL(str(config, 'url', 'http://127.0.0.1:8123'))
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RunnerError('The ClickHouse URL must start with http:// or https://', 'connection')
  return url
}

interface Request {
  config: RunnerConfig
  text: string
  queryId: string
  sessionId?: string
  format?: string
  timeoutMs?: number
  signal: AbortSignal
  /** Give up when the response headers have not arrived this soon (test(): an unreachable host answers fast). */
  headersTimeoutMs?: number
}

async function send(r: Request): Promise<Response> {
  const url = base(r.config)
  url.searchParams.set('database', str(r.config, 'dbname', 'default'))
  url.searchParams.set('query_id', r.queryId)
  if (r.format) url.searchParams.set('default_format', r.format)
  if (r.sessionId) url.searchParams.set('session_id', r.sessionId)
  if (r.timeoutMs) url.searchParams.set('max_execution_time', String(Math.max(1, Math.ceil(r.timeoutMs / 1000))))
  const headers: Record<string, string> = { 'X-ClickHouse-User': str(r.config, 'user', 'default') }
  if (r.config.password != null && r.config.password !== '') headers['X-ClickHouse-Key'] = String(r.config.password)
  // fetch's own connect timeout is 10 s; test() wants a faster answer, so it bounds the wait for headers
  const connect = new AbortController()
  const timer = r.headersTimeoutMs ? setTimeout(() => connect.abort(), r.headersTimeoutMs) : undefined
  let res: Response
  try {
    res = await fetch(url, { method: 'POST', body: r.text, headers, signal: AbortSignal.any([r.signal, connect.signal]), redirect: 'error' })
  } catch (e) {
    if (r.signal.aborted) throw e
    const cause = (e as { cause?: { code?: string; message?: string } }).cause
    const why = connect.signal.aborted ? `no answer within ${r.headersTimeoutMs! / 1000} s` : (cause?.code ?? cause?.message ?? errorMessage(e))
    throw new RunnerError(`Could not connect to ClickHouse at ${url.origin}: ${why}`, 'connection')
  } finally {
    clearTimeout(timer)
  }
  if (!res.ok) {
    const body = (await res.text()).trim()
    const code = Number(CODE.exec(body)?.[1] ?? NaN)
    const message = body.replace(/, e\.what\(\) = DB::Exception\s*$/, '') || `HTTP ${res.status}`
    if (CONNECTION_CODES.has(code) || res.status === 401 || res.status === 403) {
      throw new RunnerError(`Could not connect to ClickHouse at ${url.origin}: ${message}`, 'connection')
    }
    throw new ClickHouseError(message, Number.isNaN(code) ? null : code)
  }
  return res
}

/** Reads an answer nobody wants to its end, without keeping it (an earlier statement's rows may be large). */
async function discard(res: Response): Promise<void> {
  if (res.body) for await (const _ of res.body as unknown as AsyncIterable<Uint8Array>);
}

function serverError(line: string): ClickHouseError {
  const code = Number(CODE.exec(line.trim())?.[1] ?? NaN)
  return new ClickHouseError(line.trim().replace(/, e\.what\(\) = DB::Exception\s*$/, ''), Number.isNaN(code) ? null : code)
}

/**
 * Reads the header (names and types) and then yields rows, for either format. A line starting with "Code: " is an
 * error the server wrote after it had started answering.
 */
async function open(res: Response, format: string, caps: LineCaps) {
  const it = jsonLines(res.body as unknown as AsyncIterable<Uint8Array>, caps)[Symbol.asyncIterator]()
  const next = async () => {
    const r = await it.next()
    return r.done ? null : r.value
  }
  let names: string[] = []
  let types: string[] = []
  if (format === EACH_ROW) {
    const first = await next()
    if (first === null || first.trim() === '') return null // a statement without a result set
    if (CODE.test(first)) throw serverError(first)
    names = JSON.parse(first)
    const second = await next()
    if (second === null || CODE.test(second)) throw serverError(second ?? 'Code: 0, incomplete answer')
    types = JSON.parse(second)
  } else {
    let head = ''
    let line: string | null
    while ((line = await next()) !== null && !/^\s*"data":\s*$/.test(line)) {
      if (CODE.test(line)) throw serverError(line)
      head += line + '\n'
    }
    if (!head.trim()) return null
    if (line === null) throw serverError('Code: 0, incomplete answer')
    const meta = JSON.parse(head.replace(/,\s*$/, '') + '}').meta as { name: string; type: string }[]
    names = meta.map((m) => m.name)
    types = meta.map((m) => m.type)
    await next() // the data array's opening "["
  }
  const read = { chars: 0 } // of the rows so far, so batches of wide rows can be handed over early
  async function* rows(): AsyncGenerator<Cell[]> {
    let line: string | null
    while ((line = await next()) !== null) {
      const s = line.trim()
      if (!s) continue
      read.chars += s.length
      if (s.startsWith('[') && s !== '[') yield parseRow(s)
      else if (CODE.test(s)) throw serverError(s)
      else if (format === COMPACT) break // end of the data section: totals and statistics follow
    }
  }
  return { names, types, rows: rows(), read, close: () => it.return?.(undefined) }
}

/** One row line; the server appends its error text to the line it was writing when a query fails mid-way. */
function parseRow(line: string): Cell[] {
  try {
    return JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as Cell[]
  } catch {
    const at = line.search(/Code: \d+/)
    if (at >= 0) throw serverError(line.slice(at))
    throw new RunnerError(`Unexpected answer from ClickHouse: ${line.slice(0, 200)}`)
  }
}

const isTimeout = (e: unknown) => e instanceof ClickHouseError && e.code !== null && TIMEOUT_CODES.has(e.code)

export const clickhouseRunner: Runner = {
  type: 'clickhouse',
  name: 'ClickHouse',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  configurationSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', title: 'URL', default: 'http://127.0.0.1:8123' },
      user: { type: 'string', title: 'User', default: 'default' },
      password: { type: 'string', title: 'Password' },
      dbname: { type: 'string', title: 'Database Name', default: 'default' },
      timeout: { type: 'number', title: 'Request Timeout (seconds)', default: 30 },
    },
    order: ['url', 'user', 'password', 'dbname'],
    required: ['dbname'],
    extra_options: ['timeout'],
    secret: ['password'],
  },

  async test(config, signal) {
    const stream = await runQuery(config, 'SELECT 1', { signal, timeoutMs: 10_000 }, TEST_CONNECT_TIMEOUT_MS)
    for await (const _ of stream.batches) {
      // drained
    }
  },

  async schema(config, signal) {
    const stream = await runQuery(config, `
      SELECT database, table, name, type FROM system.columns
       WHERE database NOT IN ('system', 'INFORMATION_SCHEMA', 'information_schema')
       ORDER BY database, table`, { signal, timeoutMs: 60_000 })
    const tables = new Map<string, TableSchema>()
    for await (const batch of stream.batches) {
      for (const [db, table, column, type] of batch as string[][]) {
        const name = `${db}.${table}`
        let t = tables.get(name)
        if (!t) tables.set(name, (t = { name, columns: [] }))
        t.columns.push({ name: column, type })
      }
    }
    return [...tables.values()]
  },

  run: (config, text, options) => runQuery(config, text, options),

  cancelOrphan: (config, handle) => endOrphanQueries(async (text) => {
    const res = await send({ config, text, queryId: crypto.randomUUID(), signal: AbortSignal.timeout(10_000) })
    return res.text()
  }, handle),
}

async function runQuery(
  config: RunnerConfig, text: string,
  { signal, timeoutMs, onStatement, maxCellBytes = Infinity, maxResultBytes = Infinity }: Pick<RunOptions, 'signal' | 'timeoutMs' | 'onStatement' | 'maxCellBytes' | 'maxResultBytes'>,
  headersTimeoutMs?: number,
) {
  const configured = num(config, 'timeout', 0) * 1000
  const limit = configured > 0 ? Math.min(configured, timeoutMs) : timeoutMs
  const watch = new Watch(signal, limit)
  watch.check()
  const statements = splitStatements(text).map((s) => s.text)
  if (!statements.length) throw new RunnerError('Query is empty')
  const abort = new AbortController()
  const queryIds: string[] = []
  // every statement's query id starts with the run's, so a recovery can stop them all (clickhouse-orphan.ts)
  const runId = newRunId()
  const nextQueryId = () => statementQueryId(runId, queryIds.length + 1)
  // no transactions here: a run that may write is only marked so, for a recovery to judge its kill (clickhouse-orphan.ts)
  onStatement?.({ run_id: runId, ...(mayWrite(text) && { [WRITES]: 1 }) })
  watch.onStop(async () => {
    abort.abort()
    for (const id of queryIds) {
      await send({ config, text: `KILL QUERY WHERE query_id = '${id}'`, queryId: crypto.randomUUID(), signal: AbortSignal.timeout(5_000) })
        .then((r) => r.arrayBuffer()).catch(() => {})
    }
  })
  const fail = (e: unknown) => watch.translate(e, isTimeout, (e) => (e instanceof RunnerError ? e : new RunnerError(errorMessage(e))))
  // several statements share a session (temporary tables, SET), and the last one's result is the answer
  const sessionId = statements.length > 1 ? `sightline_${crypto.randomUUID()}` : undefined
  try {
    for (const statement of statements.slice(0, -1)) {
      const queryId = nextQueryId()
      queryIds.push(queryId)
      await discard(await send({ config, text: statement, queryId, sessionId, timeoutMs: limit, signal: abort.signal, headersTimeoutMs }))
      watch.check()
    }
    const origin = base(config).href
    let format = oldServers.has(origin) ? COMPACT : EACH_ROW
    let res: Response
    const last = statements.at(-1)!
    let queryId = nextQueryId()
    queryIds.push(queryId)
    try {
      res = await send({ config, text: last, queryId, sessionId, format, timeoutMs: limit, signal: abort.signal, headersTimeoutMs })
    } catch (e) {
      // an older server: the format is refused before the query runs, so asking again is safe
      if (!(e instanceof ClickHouseError && e.code === 73 && format === EACH_ROW)) throw e
      oldServers.add(origin)
      format = COMPACT
      queryId = nextQueryId()
      queryIds.push(queryId)
      res = await send({ config, text: last, queryId, sessionId, format, timeoutMs: limit, signal: abort.signal, headersTimeoutMs })
    }
    // long values are cut as they arrive (json-lines.ts); a row larger than a whole result ends the rows before it
    const cuts: RunCuts = { cells: false, rows: false }
    const result = await open(res, format, { maxCellBytes, maxLineBytes: maxResultBytes, cuts })
    if (!result) throw new RunnerError('Query completed but it returned no data.')
    const rows = result.rows
    const types = result.types.map(typeOf)
    const converters = types.flatMap(([, convert], i) => (convert ? [[i, convert] as const] : []))
    const columns = makeColumns(result.names.map((name, i) => ({ name, type: types[i][0] })))
    async function* batches(): AsyncGenerator<Cell[][]> {
      let batch: Cell[][] = []
      let finished = false
      let handedOver = 0 // characters of the rows in the batches before this one
      try {
        for await (const row of rows) {
          for (const [i, convert] of converters) row[i] = convert(row[i])
          batch.push(row)
          if (batch.length >= BATCH_SIZE || result!.read.chars - handedOver >= BATCH_BYTES) {
            watch.check()
            handedOver = result!.read.chars
            yield batch
            batch = []
          }
        }
        watch.check()
        if (batch.length) yield batch
        finished = true
      } catch (e) {
        if (!(e instanceof LineTooLong)) throw fail(e)
        cuts.rows = true // the rows so far are the result; the query is stopped below
        if (batch.length) yield batch
      } finally {
        if (!finished) {
          abort.abort()
          await send({ config, text: `KILL QUERY WHERE query_id = '${queryId}'`, queryId: crypto.randomUUID(), signal: AbortSignal.timeout(5_000) })
            .then((r) => r.arrayBuffer()).catch(() => {})
        }
        watch.dispose()
      }
    }
    return { columns, log: [], batches: batches(), cuts }
  } catch (e) {
    watch.dispose()
    abort.abort()
    throw fail(e)
  }
}
