import { setImmediate as nextTurn } from 'node:timers/promises'
import { loadConfig } from '../config.ts'
import { ByteBudget } from './answer-body.ts'
import { makeColumns } from './column-types.ts'
import { BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, bool, errorMessage, str } from './common.ts'
import { parsePromQuery } from './prometheus-query.ts'
import { RunnerError, type Cell, type Runner, type RunnerConfig, type RunOptions, type TableSchema } from './runner.ts'
import type { Answer, TlsOptions } from './safe-fetch.ts'
import { askSource, errorText, readJson, withoutCredentials } from './source-http.ts'

/*
 * Prometheus's HTTP API (/api/v1/query and /api/v1/query_range), with the established tool's query text
 * (prometheus-query.ts) and result: a `timestamp` (datetime) and `value` (the sample as Prometheus writes it) per
 * sample, then the series' labels as string columns. A cancel closes the request, which Prometheus answers by
 * stopping the query's evaluation; the time limit is also sent as the query's own `timeout`.
 */

type Sample = [number, string]
interface Series { metric?: Record<string, string>; value?: Sample; values?: Sample[]; histogram?: [number, unknown]; histograms?: [number, unknown][] }
interface ApiAnswer { status: 'success' | 'error'; data?: unknown; error?: string; errorType?: string }

/** At most this many metrics get their labels listed in the schema (one request each, eight at a time). */
const MAX_LABELLED_METRICS = 2_000
const LABEL_REQUESTS_AT_ONCE = 8

/** Prometheus's own error (`errorType` `timeout` when its time limit stopped the query). */
class PrometheusError extends Error {
  constructor(message: string, readonly errorType: string | undefined) {
    super(message)
  }
}

interface Target { base: URL; authorization?: string; tls?: TlsOptions }

function target(config: RunnerConfig): Target {
  let url: URL
  try {
    url = new URL(str(config, 'url'))
  } catch {
    throw new RunnerError(`The Prometheus API URL is not a URL: ${str(config, 'url') || '(empty)'}`, 'connection')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RunnerError('The Prometheus API URL must start with http:// or https://', 'connection')
  const { url: base, authorization } = withoutCredentials(url)
  base.search = ''
  base.hash = ''
  if (!base.pathname.endsWith('/')) base.pathname += '/'
  return { base, authorization, tls: tlsOf(config) }
}

/** The certificate options: base64 file contents, as the established tool stores them. */
function tlsOf(config: RunnerConfig): TlsOptions {
  const file = (key: string) => {
    const v = str(config, key)
    return v ? Buffer.from(v, 'base64').toString('utf8') : undefined
  }
  const ca = file('ca_cert_File')
  const cert = file('cert_File')
  const key = file('cert_key_File')
  return {
    ...(ca && { ca }),
    // the client certificate only with its key
    ...(cert && key && { cert, key }),
    // a root certificate of the source's own is always checked against
    rejectUnauthorized: ca ? true : bool(config, 'verify_ssl', true),
  }
}

async function get(t: Target, path: string, params: URLSearchParams, signal: AbortSignal, headersTimeoutMs?: number): Promise<Answer> {
  const url = new URL(path, t.base)
  url.search = params.toString()
  return askSource({
    url, method: 'GET', headers: { accept: 'application/json', ...(t.authorization && { authorization: t.authorization }) },
    tls: t.tls, signal, headersTimeoutMs,
  })
}

/** The answer's `data`, or Prometheus's own error message. */
async function dataOf(answer: Answer, signal: AbortSignal, maxBytes = loadConfig().maxResultBytes): Promise<unknown> {
  const json = (answer.headers['content-type'] ?? '').includes('json')
  if (!json && (answer.status < 200 || answer.status > 299)) {
    const text = await errorText(answer)
    throw new RunnerError(`Prometheus at ${answer.url.origin} answered ${answer.status}: ${text.slice(0, 500) || 'no details'}`,
      answer.status === 401 || answer.status === 403 || answer.status === 404 ? 'connection' : 'query')
  }
  const body = await readJson(answer, new ByteBudget(maxBytes), signal) as ApiAnswer
  if (body.status !== 'success') throw new PrometheusError(body.error ?? `Prometheus answered ${answer.status} without a message`, body.errorType)
  return body.data
}

/** Prometheus's timestamps (Unix seconds, with milliseconds) as ISO timestamps. */
const iso = (seconds: number) => new Date(Math.round(seconds * 1000)).toISOString()

/** One row per sample: timestamp, value, then the label values in `labels`' order. */
function* rowsOf(resultType: string, result: unknown, labels: string[]): Generator<Cell[]> {
  if (resultType === 'scalar' || resultType === 'string') {
    const [t, v] = result as Sample
    yield [iso(t), v, ...labels.map(() => null)]
    return
  }
  for (const series of result as Series[]) {
    const tags = labels.map((l) => series.metric?.[l] ?? null)
    const samples: [number, unknown][] = series.values ?? series.histograms ?? (series.value ? [series.value] : series.histogram ? [series.histogram] : [])
    for (const [t, v] of samples) yield [iso(t), typeof v === 'string' ? v : JSON.stringify(v), ...tags]
  }
}

/** Label names over every series, the first series' first (the established tool shows only those). */
function labelsOf(resultType: string, result: unknown): string[] {
  if (resultType === 'scalar' || resultType === 'string') return []
  const seen = new Set<string>()
  for (const series of result as Series[]) for (const name of Object.keys(series.metric ?? {})) seen.add(name)
  return [...seen]
}

const asRunnerError = (e: unknown) => e instanceof RunnerError ? e
  : new RunnerError(errorMessage(e), e instanceof PrometheusError && e.errorType === 'timeout' ? 'timeout' : 'query')

async function run(config: RunnerConfig, text: string, { signal, timeoutMs, maxResultBytes }: RunOptions) {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  const abort = new AbortController()
  watch.onStop(() => abort.abort())
  let isTimeout = (_: unknown) => false
  try {
    const t = target(config)
    const { endpoint, params } = parsePromQuery(text)
    // the time limit is Prometheus's own (unless the text sets one), so a query stopped by it says so in our words
    const ownTimeout = timeoutMs > 0 && !params.has('timeout')
    if (ownTimeout) params.set('timeout', `${Math.max(1, Math.ceil(timeoutMs / 1000))}s`)
    isTimeout = (e) => ownTimeout && e instanceof PrometheusError && e.errorType === 'timeout'
    const answer = await get(t, `api/v1/${endpoint}`, params, abort.signal)
    const data = await dataOf(answer, abort.signal, maxResultBytes) as { resultType: string; result: unknown }
    watch.check()
    const empty = Array.isArray(data.result) ? data.result.length === 0 : !data.result
    if (empty) throw new RunnerError('query result is empty.')
    const labels = labelsOf(data.resultType, data.result)
    const columns = makeColumns([
      { name: 'timestamp', type: 'datetime' }, { name: 'value', type: 'string' },
      ...labels.map((name) => ({ name, type: 'string' as const })),
    ])
    watch.dispose()
    async function* batches(): AsyncGenerator<Cell[][]> {
      let batch: Cell[][] = []
      for (const row of rowsOf(data.resultType, data.result, labels)) {
        batch.push(row)
        if (batch.length >= BATCH_SIZE) {
          yield batch
          batch = []
          if (signal.aborted) throw new RunnerError('Query cancelled by user.', 'cancelled')
          await nextTurn()
        }
      }
      if (batch.length) yield batch
    }
    return { columns, log: [], batches: batches() }
  } catch (e) {
    throw watch.translate(e, isTimeout, asRunnerError)
  } finally {
    watch.dispose()
  }
}

/** One table per metric, its label names as columns (for the first MAX_LABELLED_METRICS metrics). */
async function schema(config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]> {
  const t = target(config)
  const names = await dataOf(await get(t, 'api/v1/label/__name__/values', new URLSearchParams(), signal), signal) as string[]
  const tables: TableSchema[] = names.map((name) => ({ name, columns: [] }))
  let next = 0
  const labelled = tables.slice(0, MAX_LABELLED_METRICS)
  await Promise.all(Array.from({ length: LABEL_REQUESTS_AT_ONCE }, async () => {
    while (next < labelled.length) {
      const table = labelled[next++]
      const labels = await dataOf(await get(t, 'api/v1/labels', new URLSearchParams({ 'match[]': `{__name__=${JSON.stringify(table.name)}}` }), signal), signal) as string[]
      table.columns = labels.filter((l) => l !== '__name__').map((name) => ({ name }))
    }
  }))
  return tables
}

export const prometheusRunner: Runner = {
  type: 'prometheus',
  name: 'Prometheus',
  syntax: 'sql',
  supportsAutoLimit: false,
  supportsAnnotation: false,
  setupUrl: 'https://prometheus.io/docs/prometheus/latest/querying/api/',
  configurationSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', title: 'Prometheus API URL' },
      verify_ssl: { type: 'boolean', title: 'Verify SSL (Ignored, if SSL Root Certificate is given)', default: true },
      cert_File: { type: 'string', title: 'SSL Client Certificate' },
      cert_key_File: { type: 'string', title: 'SSL Client Key' },
      ca_cert_File: { type: 'string', title: 'SSL Root Certificate' },
    },
    required: ['url'],
    extra_options: ['verify_ssl', 'cert_File', 'cert_key_File', 'ca_cert_File'],
    secret: ['cert_File', 'cert_key_File', 'ca_cert_File'],
  },

  /** An instant query of `1`: it proves the address, the certificates, the credentials and the API at once. */
  async test(config, signal) {
    const answer = await get(target(config), 'api/v1/query', new URLSearchParams({ query: '1' }), signal, TEST_CONNECT_TIMEOUT_MS)
    await dataOf(answer, signal).catch((e) => {
      throw new RunnerError(asRunnerError(e).message, 'connection')
    })
  },

  schema: (config, signal) => schema(config, signal).catch((e) => {
    throw asRunnerError(e)
  }),

  run,
}
