import { loadConfig } from '../config.ts'
import { ByteBudget } from './answer-body.ts'
import { BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, str } from './common.ts'
import { seriesOf, shapeAnswer, type Chunk } from './influxdb-answer.ts'
import { jsonLines, LineTooLong } from './json-lines.ts'
import { RunnerError, type RunCuts, type Runner, type RunnerConfig, type RunOptions, type TableSchema } from './runner.ts'
import type { Answer } from './safe-fetch.ts'
import { askSource, errorText, readJson } from './source-http.ts'

/*
 * InfluxDB 1.x's HTTP API: InfluxQL is POSTed to /query (in the body, never in the URL) with `chunked=true`, so rows
 * stream as the server writes them and the caps stop the reading early. Closing the request is InfluxDB's own cancel:
 * the server interrupts a query whose client has gone. The source is the established tool's DSN,
 * `influxdb://user:password@host:8086/database` (`https+influxdb://` for TLS).
 */

interface Target { base: URL; database: string; authorization?: string }

/** The DSN as the established tool's client reads it (plain http:// and https:// URLs are taken too). */
export function parseDsn(config: RunnerConfig): Target {
  const dsn = str(config, 'url')
  let url: URL
  try {
    url = new URL(dsn)
  } catch {
    throw new RunnerError(`The InfluxDB URL is not a DSN like influxdb://user:password@host:8086/database: ${dsn || '(empty)'}`, 'connection')
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase()
  const protocol = { influxdb: 'http', 'http+influxdb': 'http', http: 'http', 'https+influxdb': 'https', https: 'https' }[scheme]
  if (!protocol) {
    throw new RunnerError(scheme.startsWith('udp') ? 'InfluxDB over UDP only takes writes; use influxdb:// or https+influxdb:// to query.'
      : `Unknown InfluxDB DSN scheme ${scheme}://; use influxdb:// or https+influxdb://`, 'connection')
  }
  if (!url.hostname) throw new RunnerError('The InfluxDB URL has no host.', 'connection')
  // the established client's default port; a plain http(s) URL keeps the usual ones (a proxy in front)
  const base = new URL(`${protocol}://${url.port || scheme.startsWith('http') ? url.host : `${url.host}:8086`}/`)
  const user = decodeURIComponent(url.username)
  const password = config.password != null && config.password !== '' ? String(config.password) : decodeURIComponent(url.password)
  return {
    base,
    database: decodeURIComponent(url.pathname.replace(/^\//, '').replace(/\/$/, '')),
    ...(user && { authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') }),
  }
}

function post(t: Target, params: Record<string, string>, signal: AbortSignal, headersTimeoutMs?: number): Promise<Answer> {
  const body = new URLSearchParams({ ...params, ...(t.database && { db: t.database }) }).toString()
  return askSource({
    url: new URL('query', t.base), method: 'POST', body, signal, headersTimeoutMs,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...(t.authorization && { authorization: t.authorization }) },
  })
}

/** Refuses an answer that is not a 200, with InfluxDB's message (`{"error": …}`). */
async function ok(answer: Answer): Promise<Answer> {
  if (answer.status === 200) return answer
  const text = await errorText(answer)
  let message = text
  try {
    message = (JSON.parse(text) as { error?: string }).error ?? text
  } catch {
    // not JSON: a proxy's page, quoted as is
  }
  const denied = answer.status === 401 || answer.status === 403
  throw new RunnerError(denied ? `InfluxDB at ${answer.url.origin} refused the credentials: ${message}` : message.slice(0, 1_000) || `InfluxDB answered ${answer.status}`,
    denied ? 'connection' : 'query')
}

/** A small answer read whole (a schema, a test): its series. */
async function ask(t: Target, q: string, signal: AbortSignal, headersTimeoutMs?: number) {
  const answer = await ok(await post(t, { q }, signal, headersTimeoutMs))
  return seriesOf(await readJson(answer, new ByteBudget(loadConfig().maxResultBytes), signal) as Chunk)
}

async function run(config: RunnerConfig, text: string, { signal, timeoutMs, maxCellBytes = Infinity, maxResultBytes = Infinity }: RunOptions) {
  // InfluxDB has no time limit per query over HTTP: at the limit the request is closed, which stops the query
  const watch = new Watch(signal, timeoutMs, timeoutMs)
  watch.check()
  const abort = new AbortController()
  watch.onStop(() => abort.abort())
  const fail = (e: unknown) => watch.translate(e, () => false, (e) => new RunnerError(errorMessage(e)))
  try {
    if (!text.trim()) throw new RunnerError('Query is empty.')
    const answer = await ok(await post(parseDsn(config), { q: text, chunked: 'true', chunk_size: String(BATCH_SIZE) }, abort.signal))
    // long values are cut as they arrive; a chunk larger than a whole result ends the rows before it
    const cuts: RunCuts = { cells: false, rows: false }
    const lines = jsonLines(answer.body, { maxCellBytes, maxLineBytes: maxResultBytes, cuts })[Symbol.asyncIterator]()
    const log: string[] = []
    const shaped = await shapeAnswer(lines, log).catch((e) => {
      answer.close()
      throw e
    })
    async function* batches() {
      let finished = false
      try {
        for await (const batch of shaped.batches) {
          watch.check()
          yield batch
        }
        watch.check()
        finished = true
      } catch (e) {
        if (!(e instanceof LineTooLong)) throw fail(e)
        cuts.rows = true
      } finally {
        // a reader that stopped early (the row cap) closes the request, and so ends the query in InfluxDB
        if (!finished) abort.abort()
        answer.close()
        watch.dispose()
      }
    }
    return { columns: shaped.columns, log, batches: batches(), cuts }
  } catch (e) {
    watch.dispose()
    abort.abort()
    throw e instanceof LineTooLong ? new RunnerError(`A part of the answer is larger than the result may be (${maxResultBytes} bytes).`) : fail(e)
  }
}

export const influxdbRunner: Runner = {
  type: 'influxdb',
  name: 'InfluxDB',
  syntax: 'sql',
  supportsAutoLimit: false,
  supportsAnnotation: false,
  setupUrl: 'https://docs.influxdata.com/influxdb/v1/administration/authentication_and_authorization/',
  configurationSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', title: 'URL (influxdb://user:password@host:8086/database)' },
      password: { type: 'string', title: 'Password (kept sealed; used instead of one in the URL)' },
    },
    order: ['url', 'password'],
    required: ['url'],
    secret: ['password'],
  },

  /**
   * `SHOW RETENTION POLICIES` in the database, which, unlike the established tool's `SHOW MEASUREMENTS LIMIT 1`,
   * fails when the database does not exist; `SHOW DATABASES` without one.
   */
  async test(config, signal) {
    const t = parseDsn(config)
    try {
      await ask(t, t.database ? 'SHOW RETENTION POLICIES' : 'SHOW DATABASES', signal, TEST_CONNECT_TIMEOUT_MS)
    } catch (e) {
      if (e instanceof RunnerError && e.kind === 'query') throw new RunnerError(e.message, 'connection')
      throw e
    }
  },

  /** A table per measurement: its fields with their types, then its tags. */
  async schema(config, signal) {
    const t = parseDsn(config)
    if (!t.database) return []
    const tables = new Map<string, TableSchema>()
    const table = (name: string) => tables.get(name) ?? tables.set(name, { name, columns: [] }).get(name)!
    for (const s of await ask(t, 'SHOW FIELD KEYS', signal)) {
      for (const [field, type] of (s.values ?? []) as string[][]) table(s.name ?? '').columns.push({ name: field, type })
    }
    for (const s of await ask(t, 'SHOW TAG KEYS', signal)) {
      for (const [tag] of (s.values ?? []) as string[][]) table(s.name ?? '').columns.push({ name: tag, type: 'tag' })
    }
    return [...tables.values()].sort((a, b) => a.name.localeCompare(b.name))
  },

  run,
}
