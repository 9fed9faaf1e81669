import { makeColumns } from './column-types.ts'
import { BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, str } from './common.ts'
import { esColumnType, esErrorMessage, mappingTables, searchRows } from './elasticsearch-answer.ts'
import { RunnerError, type Cell, type Runner, type RunnerConfig, type RunOptions, type RunStream } from './runner.ts'
import { callVendor, credentialsError, tellVendor, type VendorAnswer } from './vendor-http.ts'

/*
 * Elasticsearch and OpenSearch over their REST API, as the established tool's four kinds: `elasticsearch2` (its JSON
 * query text: `index`, `result_fields` and a query-DSL body for `/<index>/_search`), the deprecated `elasticsearch`
 * (the same text, its own option names), and the SQL endpoints of X-Pack (`/_sql`) and Open Distro / OpenSearch
 * (`/_opendistro/_sql`). The SQL ones read the rows a page at a time by the answer's cursor, as the reader asks for
 * them, and close the cursor when the reader stops early or the run is cancelled; a cancel also closes the open
 * request, which Elasticsearch answers by cancelling the search task.
 */

interface Target { base: URL; authorization?: string }

interface Options { urlKey: string; userKey: string; passwordKey: string }
const HTTP_OPTIONS: Options = { urlKey: 'url', userKey: 'username', passwordKey: 'password' }
const LEGACY_OPTIONS: Options = { urlKey: 'server', userKey: 'basic_auth_user', passwordKey: 'basic_auth_password' }

function target(config: RunnerConfig, o: Options): Target {
  const raw = str(config, o.urlKey)
  if (!raw) throw new RunnerError(`Missing configuration key '${o.urlKey}'`, 'connection')
  let base: URL
  try {
    base = new URL(raw)
  } catch {
    throw new RunnerError(`The Elasticsearch URL is not a URL: ${raw}`, 'connection')
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new RunnerError('The Elasticsearch URL must start with http:// or https://', 'connection')
  base.search = ''
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  const user = str(config, o.userKey)
  const password = config[o.passwordKey] == null ? '' : String(config[o.passwordKey])
  // Basic credentials only when both are set, as the established tool sends them
  return { base, ...(user && password && { authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') }) }
}

function headers(t: Target): Record<string, string> {
  return { accept: 'application/json', 'content-type': 'application/json', ...(t.authorization && { authorization: t.authorization }) }
}

/** The answer's JSON, or the service's own error as the user should read it. */
function bodyOf(answer: VendorAnswer, origin: string): Record<string, unknown> {
  const refused = credentialsError('Elasticsearch', answer.status, esErrorMessage(answer.json) ?? answer.text)
  if (refused) throw refused
  const own = esErrorMessage(answer.json)
  if (own) throw new RunnerError(own)
  if (answer.status < 200 || answer.status > 299 || !answer.json) {
    throw new RunnerError(`Failed to execute query. Return Code: ${answer.status}   Reason: ${answer.text.slice(0, 500) || 'no details'}`, answer.status === 404 ? 'query' : 'connection')
  }
  if (typeof answer.json !== 'object') throw new RunnerError(`Unexpected answer from ${origin}`)
  return answer.json as Record<string, unknown>
}

async function post(t: Target, path: string, body: unknown, signal: AbortSignal, maxBytes?: number, headersTimeoutMs?: number) {
  const url = new URL(path.replace(/^\/+/, ''), t.base)
  return bodyOf(await callVendor({ vendor: 'Elasticsearch', url, method: 'POST', headers: headers(t), body: JSON.stringify(body), signal, maxBytes, headersTimeoutMs }), url.origin)
}

async function get(t: Target, path: string, signal: AbortSignal, headersTimeoutMs?: number) {
  const url = new URL(path, t.base)
  return bodyOf(await callVendor({ vendor: 'Elasticsearch', url, method: 'GET', headers: headers(t), signal, headersTimeoutMs }), url.origin)
}

function parseDsl(text: string): { index: string; resultFields?: string[]; body: Record<string, unknown> } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    throw new RunnerError(`Invalid JSON format. ${errorMessage(e)}`)
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new RunnerError('The query must be a JSON object.')
  const { index = '', result_fields: resultFields, ...body } = parsed as Record<string, unknown>
  // the index fills one path segment of the configured URL and nothing else (encoded below): not `..` either
  if (/^\.\.?$/.test(String(index).trim())) throw new RunnerError(`Invalid index name: ${String(index)}`)
  return { index: String(index), resultFields: Array.isArray(resultFields) ? resultFields.map(String) : undefined, body }
}

async function* chunks(rows: Cell[][]): AsyncGenerator<Cell[][]> {
  for (let i = 0; i < rows.length; i += BATCH_SIZE) yield rows.slice(i, i + BATCH_SIZE)
}

/** The query-DSL text: one _search, its hits or aggregations as rows. */
async function runDsl(o: Options, config: RunnerConfig, text: string, { signal, timeoutMs, maxResultBytes }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  const abort = new AbortController()
  watch.onStop(() => abort.abort())
  try {
    const t = target(config, o)
    const { index, resultFields, body } = parseDsl(text)
    const answer = await post(t, `${encodeURIComponent(index).replace(/%2C/gi, ',').replace(/%2A/gi, '*')}/_search`, body, abort.signal, maxResultBytes)
    watch.check()
    const rows = searchRows(answer)
    if (!rows) throw new RunnerError('Sightline could not read the answer Elasticsearch gave: it has neither hits nor aggregations.')
    const table = rows.table(resultFields)
    return { columns: makeColumns(table.columns), log: [], batches: chunks(table.rows) }
  } catch (e) {
    throw watch.translate(e, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  } finally {
    watch.dispose()
  }
}

/** How one SQL endpoint names its parts. */
interface SqlDialect {
  path: string
  close: string
  /** The first answer's columns and rows, and any later page's rows. */
  columns: (answer: Record<string, unknown>) => { name: string; type: string }[] | undefined
  rows: (answer: Record<string, unknown>) => unknown[][]
  start: (text: string) => Record<string, unknown>
}

const FETCH_SIZE = 1_000

const xpack: SqlDialect = {
  path: '_sql?format=json', close: '_sql/close',
  columns: (a) => a.columns as { name: string; type: string }[] | undefined,
  rows: (a) => (a.rows as unknown[][] | undefined) ?? [],
  start: (query) => ({ query, fetch_size: FETCH_SIZE }),
}
const openDistro: SqlDialect = {
  path: '_opendistro/_sql?format=jdbc', close: '_opendistro/_sql/close',
  columns: (a) => a.schema as { name: string; type: string }[] | undefined,
  rows: (a) => (a.datarows as unknown[][] | undefined) ?? [],
  start: (query) => ({ query, fetch_size: FETCH_SIZE }),
}

async function runSql(dialect: SqlDialect, config: RunnerConfig, text: string, { signal, timeoutMs, maxResultBytes }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  if (!text.trim()) throw new RunnerError('Query is empty.')
  const t = target(config, HTTP_OPTIONS)
  const abort = new AbortController()
  let cursor: string | undefined
  /** Closes the cursor once, so the service frees its search context. */
  const closeCursor = async () => {
    const open = cursor
    cursor = undefined
    if (open) await tellVendor({ vendor: 'Elasticsearch', url: new URL(dialect.close, t.base), method: 'POST', headers: headers(t), body: JSON.stringify({ cursor: open }) })
  }
  watch.onStop(async () => {
    abort.abort()
    await closeCursor()
  })
  const fail = (e: unknown) => watch.translate(e, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  try {
    const first = await post(t, dialect.path, dialect.start(text), abort.signal, maxResultBytes)
    watch.check()
    cursor = typeof first.cursor === 'string' && first.cursor ? first.cursor : undefined
    const described = dialect.columns(first) ?? []
    const types = described.map((c) => esColumnType(c.type))
    const columns = makeColumns(described.map((c, i) => ({ name: c.name, type: types[i] })))
    const toRows = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v ?? null) as Cell))
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        const rows = dialect.rows(first)
        if (rows.length) yield toRows(rows)
        while (cursor) {
          watch.check()
          const page = await post(t, dialect.path, { cursor }, abort.signal, maxResultBytes)
          watch.check()
          cursor = typeof page.cursor === 'string' && page.cursor ? page.cursor : undefined
          const more = dialect.rows(page)
          if (more.length) yield toRows(more)
        }
        watch.check()
      } catch (e) {
        throw fail(e)
      } finally {
        // a reader that stopped early (the row or byte cap) frees the search context too
        await closeCursor()
        watch.dispose()
      }
    }
    return { columns, log: [], batches: batches() }
  } catch (e) {
    watch.dispose()
    await closeCursor()
    throw fail(e)
  }
}

const schema = (o: Options) => async (config: RunnerConfig, signal: AbortSignal) =>
  mappingTables(await get(target(config, o), '_mappings', signal) as Record<string, { mappings?: Record<string, unknown> }>)

const test = (o: Options) => async (config: RunnerConfig, signal: AbortSignal) => {
  await get(target(config, o), '_cluster/health', signal, TEST_CONNECT_TIMEOUT_MS).catch((e) => {
    throw e instanceof RunnerError && e.kind === 'query' ? new RunnerError(e.message, 'connection') : e
  })
}

const httpSchema = {
  type: 'object' as const,
  properties: {
    url: { type: 'string' as const, title: 'URL base path' },
    username: { type: 'string' as const, title: 'HTTP Basic Auth Username' },
    password: { type: 'string' as const, title: 'HTTP Basic Auth Password' },
  },
  order: ['url', 'username', 'password'],
  required: ['url'],
  secret: ['password'],
}
const SETUP = 'https://www.elastic.co/guide/en/elasticsearch/reference/current/search-search.html'
const common = { supportsAutoLimit: false, supportsAnnotation: false, schema: schema(HTTP_OPTIONS), test: test(HTTP_OPTIONS) }

export const elasticsearchRunner: Runner = {
  ...common, type: 'elasticsearch2', name: 'Elasticsearch', syntax: 'json', setupUrl: SETUP, configurationSchema: httpSchema,
  run: (config, text, options) => runDsl(HTTP_OPTIONS, config, text, options),
}

export const openDistroSqlRunner: Runner = {
  ...common, type: 'elasticsearch2_OpenDistroSQLElasticSearch', name: 'Open Distro SQL Elasticsearch', syntax: 'sql', configurationSchema: httpSchema,
  setupUrl: 'https://docs.opensearch.org/latest/search-plugins/sql/sql-ppl-api/',
  run: (config, text, options) => runSql(openDistro, config, text, options),
}

export const xpackSqlRunner: Runner = {
  ...common, type: 'elasticsearch2_XPackSQLElasticSearch', name: 'X-Pack SQL Elasticsearch', syntax: 'sql', configurationSchema: httpSchema,
  setupUrl: 'https://www.elastic.co/guide/en/elasticsearch/reference/current/sql-search-api.html',
  run: (config, text, options) => runSql(xpack, config, text, options),
}

/** The established tool's first Elasticsearch kind, kept so imported sources run: the same query text. */
export const legacyElasticsearchRunner: Runner = {
  type: 'elasticsearch', name: 'Elasticsearch (deprecated)', syntax: 'json', setupUrl: SETUP, supportsAutoLimit: false, supportsAnnotation: false,
  configurationSchema: {
    type: 'object',
    properties: {
      server: { type: 'string', title: 'Base URL' },
      basic_auth_user: { type: 'string', title: 'Basic Auth User' },
      basic_auth_password: { type: 'string', title: 'Basic Auth Password' },
    },
    order: ['server', 'basic_auth_user', 'basic_auth_password'],
    required: ['server'],
    secret: ['basic_auth_password'],
  },
  schema: schema(LEGACY_OPTIONS),
  test: test(LEGACY_OPTIONS),
  run: (config, text, options) => runDsl(LEGACY_OPTIONS, config, text, options),
}
