import { makeColumns } from './column-types.ts'
import { TEST_CONNECT_TIMEOUT_MS, Watch, bool, errorMessage, num, str } from './common.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type RunOptions, type RunStream, type RunUser, type TableSchema } from './runner.ts'
import { callVendor, credentialsError, tellVendor } from './vendor-http.ts'

/*
 * Trino and Presto over their client protocol (trino.io/docs/current/develop/client-protocol.html): the statement is
 * POSTed to /v1/statement, each answer's `nextUri` is followed for the next part of the rows until there is none,
 * and a DELETE on the current `nextUri` ends the query in the engine — sent on a cancel, at the time limit, and when
 * the reader stops early (the row or byte cap). The two speak the same protocol with their own header prefix.
 */

interface QueryColumn { name: string; type: string }
interface QueryError { message?: string; errorName?: string; errorType?: string; failureInfo?: { message?: string } }
interface QueryResults {
  id?: string
  nextUri?: string
  columns?: QueryColumn[]
  data?: unknown[][]
  error?: QueryError
  stats?: { state?: string }
}

export interface Dialect {
  type: 'trino' | 'presto'
  name: string
  /** `X-Trino-` or `X-Presto-`. */
  prefix: string
  defaults: { username: string; catalog: string; schema: string; source: string }
}

/** A Trino type name (`decimal(10,2)`, `timestamp(3) with time zone`) as a column type. */
export function columnType(type: string): ColumnType | null {
  const base = type.toLowerCase().replace(/\(.*$/, '').trim()
  if (base === 'boolean') return 'boolean'
  if (['tinyint', 'smallint', 'integer', 'bigint'].includes(base)) return 'integer'
  if (['real', 'double', 'decimal'].includes(base)) return 'float'
  if (['varchar', 'char', 'json', 'uuid', 'ipaddress', 'varbinary'].includes(base)) return 'string'
  if (base === 'date') return 'date'
  if (base.startsWith('timestamp')) return 'datetime'
  return null
}

/** Trino writes timestamps as `2024-05-01 12:00:00.000` (zone after a space): ISO, as stored results keep them. */
function cell(value: unknown, type: ColumnType | null): Cell {
  if (value === null || value === undefined) return null
  if (type === 'datetime' && typeof value === 'string') return value.replace(' ', 'T')
  if (type === 'float' && typeof value === 'string' && Number.isFinite(Number(value))) return Number(value)
  return value as Cell
}

interface Endpoint { base: URL; headers: Record<string, string> }

/**
 * The session user: with `impersonation`, the executing user's e-mail or name (`impersonationField`), so the engine's
 * access rules apply to that person; the source's username otherwise, and for runs that are nobody's (a query's key,
 * the schema browser, Test Connection). The password still signs in as the source's username, which the engine must
 * allow to impersonate.
 */
export function sessionUser(config: RunnerConfig, username: string, user: RunUser | undefined): string {
  if (!bool(config, 'impersonation') || !user) return username
  return (str(config, 'impersonationField', 'email') === 'name' ? user.name : user.email) || username
}

function endpoint(dialect: Dialect, config: RunnerConfig, timeoutMs = 0, runUser?: RunUser): Endpoint {
  const protocol = str(config, 'protocol', 'http').replace(/:.*$/, '')
  if (protocol !== 'http' && protocol !== 'https') throw new RunnerError(`${dialect.name}'s protocol must be http or https (got ${protocol}).`, 'connection')
  const host = str(config, 'host')
  if (!host) throw new RunnerError(`${dialect.name} needs a host.`, 'connection')
  let base: URL
  try {
    base = new URL(`${protocol}://${host}:${num(config, 'port', 8080)}/`)
  } catch {
    throw new RunnerError(`${dialect.name}'s host is not a host name: ${host}`, 'connection')
  }
  const p = dialect.prefix
  const user = str(config, 'username', dialect.defaults.username)
  const headers: Record<string, string> = {
    [`${p}User`]: sessionUser(config, user, runUser),
    [`${p}Source`]: str(config, 'source', dialect.defaults.source),
    'content-type': 'text/plain; charset=utf-8',
    accept: 'application/json',
  }
  const catalog = str(config, 'catalog', dialect.defaults.catalog)
  const schema = str(config, 'schema', dialect.defaults.schema)
  if (catalog) headers[`${p}Catalog`] = catalog
  if (schema) headers[`${p}Schema`] = schema
  const tags = str(config, 'client_tags').split(',').map((t) => t.trim()).filter(Boolean)
  if (tags.length) headers[`${p}Client-Tags`] = tags.join(',')
  // the engine's own limit, so a query past it is stopped where it runs
  if (timeoutMs > 0) headers[`${p}Session`] = `query_max_run_time=${Math.max(1, Math.ceil(timeoutMs / 1000))}s`
  const password = config.password == null ? '' : String(config.password)
  if (password) headers.authorization = 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64')
  return { base, headers }
}

/** One answer of the protocol; the engine's error as the user should read it. */
async function ask(dialect: Dialect, e: Endpoint, url: URL, method: 'POST' | 'GET', signal: AbortSignal, body?: string, headersTimeoutMs?: number): Promise<QueryResults> {
  const answer = await callVendor({ vendor: dialect.name, url, method, headers: method === 'POST' ? e.headers : { accept: 'application/json', ...(e.headers.authorization && { authorization: e.headers.authorization }) }, body, signal, headersTimeoutMs })
  const refused = credentialsError(dialect.name, answer.status, answer.text || JSON.stringify(answer.json ?? ''))
  if (refused) throw refused
  if (answer.status !== 200 || !answer.json) {
    throw new RunnerError(`${dialect.name} at ${url.origin} answered ${answer.status}: ${answer.text.slice(0, 500) || 'no details'}`, answer.status === 404 ? 'connection' : 'query')
  }
  const results = answer.json as QueryResults
  if (results.error) {
    const message = results.error.failureInfo?.message ?? results.error.message ?? 'the query failed'
    throw new RunnerError(message, results.error.errorName === 'EXCEEDED_TIME_LIMIT' ? 'timeout' : 'query')
  }
  return results
}

/**
 * A running statement: its answers one after another, the rows of each as they come. `stop()` ends it in the engine
 * (DELETE on the next URI) unless it has finished.
 */
class Statement {
  next: URL | undefined
  finished = false
  constructor(private dialect: Dialect, private e: Endpoint, private signal: AbortSignal) {}

  async start(text: string, headersTimeoutMs?: number): Promise<QueryResults> {
    return this.take(await ask(this.dialect, this.e, new URL('v1/statement', this.e.base), 'POST', this.signal, text, headersTimeoutMs))
  }

  async more(): Promise<QueryResults> {
    return this.take(await ask(this.dialect, this.e, this.next!, 'GET', this.signal))
  }

  private take(results: QueryResults): QueryResults {
    if (results.nextUri) {
      // the protocol's links must stay on the configured host: an answer cannot send the credentials, or the run,
      // anywhere else (a coordinator behind a proxy must be configured with its external URI)
      const next = new URL(results.nextUri, this.e.base)
      if (next.origin !== this.e.base.origin) {
        this.finished = true
        throw new RunnerError(`${this.dialect.name} sent a next address on another host (${next.origin}); only ${this.e.base.origin} is queried.`, 'connection')
      }
      this.next = next
    } else {
      this.next = undefined
      this.finished = true
    }
    return results
  }

  async stop(): Promise<void> {
    if (this.finished || !this.next) return
    this.finished = true
    await tellVendor({ vendor: this.dialect.name, url: this.next, method: 'DELETE', headers: { ...(this.e.headers.authorization && { authorization: this.e.headers.authorization }) } })
  }
}

async function run(dialect: Dialect, config: RunnerConfig, text: string, { signal, timeoutMs, user }: RunOptions, headersTimeoutMs?: number): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  if (!text.trim()) throw new RunnerError('Query is empty.')
  const abort = new AbortController()
  const e = endpoint(dialect, config, timeoutMs, user)
  const statement = new Statement(dialect, e, abort.signal)
  watch.onStop(async () => {
    abort.abort()
    await statement.stop()
  })
  const fail = (err: unknown) => watch.translate(err, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  try {
    // the columns come with the first rows or before them; rows before the columns are kept until they do
    let results = await statement.start(text, headersTimeoutMs)
    const early: unknown[][][] = []
    while (!results.columns && !statement.finished) {
      if (results.data?.length) early.push(results.data)
      watch.check()
      results = await statement.more()
    }
    watch.check()
    const described = results.columns ?? []
    const types = described.map((c) => columnType(c.type))
    const toRows = (data: unknown[][]) => data.map((row) => row.map((v, i) => cell(v, types[i])))
    if (results.data?.length) early.push(results.data)
    const columns = makeColumns(described.map((c, i) => ({ name: c.name, type: types[i] })))
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        for (const data of early.splice(0)) yield toRows(data)
        while (!statement.finished) {
          watch.check()
          const page = await statement.more()
          watch.check()
          if (page.data?.length) yield toRows(page.data)
        }
        // a stop ends the statement's answers as well: the run is then cancelled, not finished
        watch.check()
      } catch (err) {
        throw fail(err)
      } finally {
        // a reader that stopped early (row or byte cap) ends the query in the engine too
        await statement.stop()
        watch.dispose()
      }
    }
    return { columns, log: [], batches: batches() }
  } catch (err) {
    watch.dispose()
    await statement.stop()
    throw fail(err)
  }
}

/** Every row of a small statement (SHOW CATALOGS, information_schema), read to the end. */
async function rowsOf(dialect: Dialect, config: RunnerConfig, text: string, signal: AbortSignal): Promise<Cell[][]> {
  const stream = await run(dialect, config, text, { signal, timeoutMs: 0 })
  const rows: Cell[][] = []
  for await (const batch of stream.batches) rows.push(...(batch as Cell[][]))
  return rows
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

async function schema(dialect: Dialect, config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]> {
  const configured = str(config, 'catalog', dialect.defaults.catalog)
  const catalogs = configured ? [configured] : (await rowsOf(dialect, config, 'SHOW CATALOGS', signal)).map((r) => String(r[0]))
  const tables = new Map<string, TableSchema>()
  for (const catalog of catalogs) {
    const rows = await rowsOf(dialect, config, `SELECT table_schema, table_name, column_name, data_type FROM ${quoted(catalog)}.information_schema.columns ` +
      "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_schema, table_name, ordinal_position", signal)
    for (const [schemaName, table, column, type] of rows) {
      // Trino names tables by catalog too (several catalogs are listed); Presto by schema, as the established tool does
      const name = dialect.type === 'trino' ? `${catalog}.${schemaName}.${table}` : `${schemaName}.${table}`
      let t = tables.get(name)
      if (!t) tables.set(name, (t = { name, columns: [] }))
      t.columns.push(dialect.type === 'trino' ? { name: String(column), type: String(type) } : { name: String(column) })
    }
  }
  return [...tables.values()]
}

function runnerFor(dialect: Dialect, extra: Pick<Runner, 'configurationSchema' | 'supportsAutoLimit' | 'setupUrl'>): Runner {
  return {
    type: dialect.type,
    name: dialect.name,
    syntax: 'sql',
    supportsAnnotation: true,
    ...extra,
    async test(config, signal) {
      const stream = await run(dialect, config, 'SELECT 1', { signal, timeoutMs: 30_000 }, TEST_CONNECT_TIMEOUT_MS).catch((e) => {
        throw e instanceof RunnerError && e.kind === 'query' ? new RunnerError(e.message, 'connection') : e
      })
      for await (const _ of stream.batches) {
        // read to the end, so the statement is finished in the engine
      }
    },
    schema: (config, signal) => schema(dialect, config, signal).catch((e) => {
      throw new RunnerError(`Error during query execution. Reason: ${errorMessage(e)}`, e instanceof RunnerError ? e.kind : 'query')
    }),
    run: (config, text, options) => run(dialect, config, text, options),
  }
}

export const trinoRunner = runnerFor(
  { type: 'trino', name: 'Trino', prefix: 'X-Trino-', defaults: { username: '', catalog: '', schema: '', source: 'sightline' } },
  {
    supportsAutoLimit: true,
    setupUrl: 'https://trino.io/docs/current/develop/client-protocol.html',
    configurationSchema: {
      type: 'object',
      properties: {
        protocol: { type: 'string', title: 'Protocol', default: 'http', extendedEnum: [{ value: 'http', name: 'http' }, { value: 'https', name: 'https' }] },
        host: { type: 'string', title: 'Host' },
        port: { type: 'number', title: 'Port', default: 8080 },
        username: { type: 'string', title: 'Username' },
        password: { type: 'string', title: 'Password' },
        source: { type: 'string', title: 'Source', default: 'sightline' },
        client_tags: { type: 'string', title: 'Client tags (comma separated)' },
        catalog: { type: 'string', title: 'Catalog' },
        schema: { type: 'string', title: 'Schema' },
        impersonation: { type: 'boolean', title: 'Impersonate the executing user', default: false },
        impersonationField: { type: 'string', title: 'Impersonation User Attribute', default: 'email', extendedEnum: [{ value: 'email', name: 'Email' }, { value: 'name', name: 'Name' }] },
      },
      order: ['protocol', 'host', 'port', 'username', 'password', 'source', 'client_tags', 'catalog', 'schema'],
      required: ['host', 'username'],
      extra_options: ['client_tags', 'impersonation', 'impersonationField'],
      secret: ['password'],
    },
  },
)

export const prestoRunner = runnerFor(
  { type: 'presto', name: 'Presto', prefix: 'X-Presto-', defaults: { username: 'sightline', catalog: 'hive', schema: 'default', source: 'sightline' } },
  {
    supportsAutoLimit: false,
    setupUrl: 'https://prestodb.io/docs/current/develop/client-protocol.html',
    configurationSchema: {
      type: 'object',
      properties: {
        host: { type: 'string', title: 'Host' },
        protocol: { type: 'string', title: 'Protocol', default: 'http' },
        port: { type: 'number', title: 'Port', default: 8080 },
        username: { type: 'string', title: 'Username' },
        password: { type: 'string', title: 'Password' },
        schema: { type: 'string', title: 'Schema' },
        catalog: { type: 'string', title: 'Catalog' },
        impersonation: { type: 'boolean', title: 'Impersonate the executing user', default: false },
        impersonationField: { type: 'string', title: 'Impersonation User Attribute', default: 'email', extendedEnum: [{ value: 'email', name: 'Email' }, { value: 'name', name: 'Name' }] },
      },
      order: ['host', 'protocol', 'port', 'username', 'password', 'schema', 'catalog'],
      required: ['host'],
      extra_options: ['impersonation', 'impersonationField'],
      // sealed here, unlike the established tool, which showed it to admins
      secret: ['password'],
    },
  },
)
