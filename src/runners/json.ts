import { setImmediate as nextTurn } from 'node:timers/promises'
import yaml from 'js-yaml'
import { BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, str } from './common.ts'
import { inferTypes, makeColumns, mergeTypes } from './column-types.ts'
import { loadConfig } from '../config.ts'
import { systemResolve, type Resolve } from './address-guard.ts'
import { ByteBudget, readBody, readStart } from './answer-body.ts'
import { PageReader, type PageRows } from './json-rows-thread.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig } from './runner.ts'
import { httpOnly, safeFetch, type Send } from './safe-fetch.ts'

/**
 * The query text describes one HTTP request (JSON, or YAML like the established tool's JSON source):
 * `{url, method?, headers?, params?, json?, data?, auth?, path?, fields?, pagination?}`.
 */
interface Request {
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  params: Record<string, string>
  body?: string
  auth?: [string, string]
  path?: string
  fields?: string[]
  pagination?: { type: 'url'; path: string } | { type: 'token'; field: string; param: string }
}

const MAX_PAGES = 1_000
/** Rows put in column order between two turns of the event loop, so a large result does not hold up the server. */
const ITEMS_PER_TURN = 10_000

function parseQuery(text: string): Request {
  if (!text.trim()) throw new RunnerError('Query is empty.')
  let q: unknown
  try {
    q = yaml.load(text, { schema: yaml.JSON_SCHEMA })
  } catch (e) {
    throw new RunnerError(`Query should be a YAML object describing the URL to query. ${errorMessage(e).split('\n')[0]}`)
  }
  if (!q || typeof q !== 'object' || Array.isArray(q)) throw new RunnerError('Query should be a YAML object describing the URL to query.')
  const o = q as Record<string, unknown>
  if (typeof o.url !== 'string' || !o.url) throw new RunnerError("Query must include 'url' option.")
  const method = String(o.method ?? (o.json !== undefined || o.data !== undefined ? 'post' : 'get')).toUpperCase()
  if (method !== 'GET' && method !== 'POST') throw new RunnerError('Only GET or POST methods are allowed.')
  if (o.fields !== undefined && !Array.isArray(o.fields)) throw new RunnerError("'fields' needs to be a list.")
  const strings = (v: unknown) => Object.fromEntries(Object.entries((v ?? {}) as Record<string, unknown>).map(([k, x]) => [k, String(x)]))
  const headers = strings(o.headers)
  let body: string | undefined
  if (o.json !== undefined) {
    body = JSON.stringify(o.json)
    headers['content-type'] ??= 'application/json'
  } else if (o.data !== undefined) body = typeof o.data === 'string' ? o.data : new URLSearchParams(strings(o.data)).toString()
  const p = o.pagination as Record<string, unknown> | undefined
  let pagination: Request['pagination']
  if (p?.type === 'url') pagination = { type: 'url', path: String(p.path ?? '_links.next.href') }
  else if (p?.type === 'token') {
    const [field, param] = Array.isArray(p.fields) ? p.fields.map(String) : ['next_page_token', 'page_token']
    pagination = { type: 'token', field, param }
  } else if (p) throw new RunnerError("'pagination' type must be 'url' or 'token'.")
  return {
    url: o.url, method, headers, params: strings(o.params), body,
    auth: Array.isArray(o.auth) ? [String(o.auth[0]), String(o.auth[1])] : undefined,
    path: typeof o.path === 'string' ? o.path : undefined,
    fields: o.fields as string[] | undefined,
    pagination,
  }
}

/** The request URL: relative to the data source's base URL when there is one; http and https only. */
function target(config: RunnerConfig, url: string): URL {
  try {
    const baseUrl = str(config, 'base_url')
    return httpOnly(baseUrl ? new URL(url, baseUrl.endsWith('/') ? baseUrl : baseUrl + '/') : new URL(url))
  } catch (e) {
    throw e instanceof RunnerError ? e : new RunnerError(`Invalid URL: ${url}`)
  }
}

/** How the runner reaches the network; the tests pass their own DNS answers or transport. */
export interface Network {
  resolve: Resolve
  send?: Send
}

/** One page's rows: the answer's body, within what is left of the run's budget, read by a PageReader. */
async function fetchPage(config: RunnerConfig, r: Request, url: URL, budget: ByteBudget, network: Network, watch: Watch, signal: AbortSignal): Promise<PageRows> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(r.headers)) headers[name.toLowerCase()] = value
  const [user, pass] = r.auth ?? [str(config, 'username'), config.password == null ? '' : String(config.password)]
  if (user && !headers.authorization) headers.authorization = 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64')
  headers.accept ??= 'application/json'
  const answer = await safeFetch(url, { method: r.method, headers, body: r.body }, {
    baseUrl: str(config, 'base_url') || undefined, signal, ...network,
  })
  if (answer.status < 200 || answer.status > 299) {
    const start = (await readStart(answer, 2_000)).toString('utf8')
    throw new RunnerError(`Failed getting results (${answer.status}): ${start.slice(0, 500)}`)
  }
  const p = r.pagination
  const reader = new PageReader({ url: String(answer.url), path: r.path, fields: r.fields, nextPath: p && (p.type === 'url' ? p.path : p.field) }, watch)
  try {
    await readBody(answer, budget, signal, (chunk) => reader.add(chunk))
  } catch (e) {
    reader.discard()
    throw e
  }
  watch.check()
  return reader.finish()
}

/** One page's rows, with where its columns sit among the run's and the types its values showed. */
interface PageTable { columns: number[]; types: (ColumnType | null)[]; rows: Cell[][] }

/**
 * The result's rows, columns in `order` (indexes into the run's names), with each column's type over every page.
 * A single page whose columns already are in that order gives its rows as they are.
 */
async function assemble(pages: PageTable[], order: number[]) {
  const types = order.map((g) => pages.reduce<ColumnType | null>((t, page) => {
    const i = page.columns.indexOf(g)
    return i < 0 ? t : mergeTypes(t, page.types[i])
  }, null))
  const only = pages.length === 1 ? pages[0] : null
  if (only && only.columns.length === order.length && order.every((g, i) => only.columns[i] === g)) return { table: only.rows, types }
  const table: Cell[][] = []
  for (const page of pages) {
    const from = order.map((g) => page.columns.indexOf(g))
    for (let i = 0; i < page.rows.length; i++) {
      if (i > 0 && i % ITEMS_PER_TURN === 0) await nextTurn()
      const r = page.rows[i]
      table.push(from.map((f) => (f < 0 ? null : r[f])))
    }
  }
  return { table, types }
}

/** The JSON runner, reaching the network through `network` (the system's DNS unless a test says otherwise). */
export const createJsonRunner = (network: Network = { resolve: systemResolve }): Runner => ({
  type: 'json',
  name: 'JSON',
  syntax: 'json',
  supportsAutoLimit: false,
  supportsAnnotation: false,
  configurationSchema: {
    type: 'object',
    properties: {
      base_url: { type: 'string', title: 'Base URL' },
      username: { type: 'string', title: 'HTTP Basic Auth Username' },
      password: { type: 'string', title: 'HTTP Basic Auth Password' },
    },
    order: ['base_url', 'username', 'password'],
    secret: ['password'],
  },

  /** Reaches the base URL when there is one (any HTTP answer will do, a redirect too); nothing to check otherwise. */
  async test(config, signal) {
    const baseUrl = str(config, 'base_url')
    if (!baseUrl) return
    const url = target(config, baseUrl)
    const stop = AbortSignal.any([signal, AbortSignal.timeout(TEST_CONNECT_TIMEOUT_MS)])
    try {
      const answer = await safeFetch(url, { method: 'GET', headers: {} }, { baseUrl, signal: stop, followRedirects: false, ...network })
      answer.close()
    } catch (e) {
      if (signal.aborted) throw new RunnerError('Query cancelled by user.', 'cancelled')
      if (e instanceof RunnerError) throw e
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${TEST_CONNECT_TIMEOUT_MS / 1000} s` : errorMessage(e)
      throw new RunnerError(`Could not reach ${url.origin}: ${why}`, 'connection')
    }
  },

  async schema() {
    return []
  },

  async run(config, text, { signal, timeoutMs }) {
    const watch = new Watch(signal, timeoutMs, timeoutMs)
    watch.check()
    const abort = new AbortController()
    watch.onStop(() => abort.abort())
    try {
      const request = parseQuery(text)
      let url: URL | null = target(config, request.url)
      for (const [k, v] of Object.entries(request.params)) url.searchParams.set(k, v)
      const names: string[] = []
      const nameIndex = new Map<string, number>()
      const pages: PageTable[] = []
      // Every page of one run draws on one budget: the result is what it must fit.
      const budget = new ByteBudget(loadConfig().maxResultBytes)
      const p = request.pagination
      for (let n = 0; url && n < MAX_PAGES; n++) {
        const page = await fetchPage(config, request, url, budget, network, watch, abort.signal)
        const columns = page.names.map((name) => {
          if (!nameIndex.has(name)) nameIndex.set(name, names.push(name) - 1)
          return nameIndex.get(name)!
        })
        const table: PageTable = { columns, types: new Array(columns.length).fill(null), rows: [] }
        for await (const slice of page.slices) {
          const seen = inferTypes(slice, columns.length)
          for (let i = 0; i < columns.length; i++) table.types[i] = mergeTypes(table.types[i], seen[i])
          for (const row of slice) table.rows.push(row)
        }
        pages.push(table)
        if (!p || page.next === null) url = null
        else if (p.type === 'url') url = httpOnly(new URL(page.next, url))
        else (url = new URL(url)).searchParams.set(p.param, page.next)
      }
      const ordered = request.fields ? [...request.fields.filter((f) => names.includes(f)), ...names.filter((n) => !request.fields!.includes(n))] : names
      const { table, types } = await assemble(pages, ordered.map((n) => nameIndex.get(n)!))
      const columns = makeColumns(ordered.map((name, i) => ({ name, type: types[i] ?? 'string' })))
      watch.dispose()
      return {
        columns, log: [],
        batches: (async function* () {
          for (let i = 0; i < table.length; i += BATCH_SIZE) yield table.slice(i, i + BATCH_SIZE)
        })(),
      }
    } catch (e) {
      throw watch.translate(e, () => false, (e) => (e instanceof RunnerError ? e : new RunnerError(errorMessage(e))))
    } finally {
      watch.dispose()
    }
  },
})

export const jsonRunner: Runner = createJsonRunner()
