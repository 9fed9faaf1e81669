import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { makeColumns } from './column-types.ts'
import { Watch, bool, errorMessage, num, str } from './common.ts'
import { accessToken } from './google-auth.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type RunOptions, type RunStream, type TableSchema } from './runner.ts'
import { callVendor, tellVendor } from './vendor-http.ts'

/*
 * BigQuery over its REST API (cloud.google.com/bigquery/docs/reference/rest): the query is a job (jobs.insert, with
 * our own job id so a cancel can name it before the insert has answered), its rows are read with
 * jobs.getQueryResults a page at a time as the reader asks for them, and a cancel or the time limit sends
 * jobs.cancel. A dry run first estimates the bytes the query will scan when the source sets a limit on them (the
 * established tool's check), and the estimate is shown in the run's log; `maximumBytesBilled` is BigQuery's own cap.
 */

const API = 'https://bigquery.googleapis.com/bigquery/v2/'
const SCOPE = 'https://www.googleapis.com/auth/bigquery'
const PAGE_ROWS = 10_000
/** How long one getQueryResults waits for the job to finish before answering jobComplete: false. */
const POLL_WAIT_MS = 10_000
/** The least time between two asks about a running job. */
const MIN_POLL_MS = 200

interface Field { name: string; type: string; mode?: string; fields?: Field[] }
interface QueryResults {
  jobComplete?: boolean
  schema?: { fields: Field[] }
  rows?: { f: { v: unknown }[] }[]
  pageToken?: string
  totalRows?: string
  totalBytesProcessed?: string
}
interface Job { jobReference?: { jobId: string; location?: string }; status?: { state?: string; errorResult?: { message: string } }; statistics?: { totalBytesProcessed?: string } }

export function columnType(field: Field): ColumnType | null {
  if (field.mode === 'REPEATED') return 'string'
  switch (field.type) {
    case 'INTEGER': case 'INT64': return 'integer'
    case 'FLOAT': case 'FLOAT64': case 'NUMERIC': case 'BIGNUMERIC': return 'float'
    case 'BOOLEAN': case 'BOOL': return 'boolean'
    case 'TIMESTAMP': case 'DATETIME': return 'datetime'
    case 'DATE': return 'date'
    default: return 'string'
  }
}

/** A value in the API's encoding (every scalar a string; RECORD as `{f: [...]}`, REPEATED as `[{v}]`). */
function value(v: unknown, field: Field): unknown {
  if (v === null || v === undefined) return null
  if (field.mode === 'REPEATED') return (v as { v: unknown }[]).map((x) => value(x.v, { ...field, mode: 'NULLABLE' }))
  switch (field.type) {
    case 'INTEGER': case 'INT64': return Number.isSafeInteger(Number(v)) ? Number(v) : String(v)
    case 'FLOAT': case 'FLOAT64': case 'NUMERIC': case 'BIGNUMERIC': return Number(v)
    case 'BOOLEAN': case 'BOOL': return v === 'true' || v === true
    // seconds since the epoch, written as a float ("1.7146512E9")
    case 'TIMESTAMP': return new Date(Number(v) * 1000).toISOString()
    case 'RECORD': case 'STRUCT': return Object.fromEntries((field.fields ?? []).map((f, i) => [f.name, value((v as { f: { v: unknown }[] }).f[i]?.v, f)]))
    default: return v
  }
}

const cell = (v: unknown, field: Field): Cell => {
  const x = value(v, field)
  // arrays and records are shown as JSON text, as the established tool shows them
  return x !== null && typeof x === 'object' ? JSON.stringify(x) : (x as Cell)
}

interface Session { config: RunnerConfig; project: string; location?: string; signal: AbortSignal }

/** One API call with the source's token: a refused token is signed again once, then reported. */
async function api(s: Session, method: 'GET' | 'POST', path: string, body?: unknown, params: Record<string, string | undefined> = {}): Promise<unknown> {
  const url = new URL(path, API)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v)
  for (let attempt = 0; ; attempt++) {
    const token = await accessToken(s.config.jsonKeyFile, SCOPE, s.signal, attempt > 0)
    const answer = await callVendor({
      vendor: 'BigQuery', url, method, signal: s.signal, ...(body !== undefined && { body: JSON.stringify(body) }),
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
    })
    const error = (answer.json as { error?: { message?: string; status?: string } } | undefined)?.error
    if (answer.status === 401 && attempt === 0) continue
    if (answer.status === 401) {
      throw new RunnerError(`BigQuery refused the access token (401): ${error?.message ?? answer.text}. The service account key may have been revoked or expired.`, 'connection')
    }
    if (answer.status < 200 || answer.status > 299) {
      throw new RunnerError(error?.message ?? `BigQuery answered ${answer.status}: ${answer.text.slice(0, 500)}`, 'query')
    }
    return answer.json
  }
}

function session(config: RunnerConfig, signal: AbortSignal): Session {
  const project = str(config, 'projectId')
  if (!project) throw new RunnerError('BigQuery needs a Project ID.', 'connection')
  const location = str(config, 'location') || undefined
  return { config, project, location, signal }
}

const jobsPath = (s: Session) => `projects/${encodeURIComponent(s.project)}/jobs`

function queryConfiguration(config: RunnerConfig, text: string) {
  const udf = str(config, 'userDefinedFunctionResourceUri').split(',').map((u) => u.trim()).filter(Boolean)
  const billed = num(config, 'maximumBytesBilled', 0)
  const tier = num(config, 'maximumBillingTier', 0)
  return {
    query: text,
    useLegacySql: !bool(config, 'useStandardSql', true),
    ...(udf.length && { userDefinedFunctionResources: udf.map((resourceUri) => ({ resourceUri })) }),
    ...(billed > 0 && { maximumBytesBilled: String(Math.trunc(billed)) }),
    ...(tier > 0 && { maximumBillingTier: Math.trunc(tier) }),
  }
}

const megabytes = (bytes: number) => bytes / (1024 * 1024)

/** The bytes the query would scan (a dry run: nothing runs, nothing is billed). */
export async function estimateBytes(config: RunnerConfig, text: string, signal: AbortSignal): Promise<number> {
  const s = session(config, signal)
  const job = await api(s, 'POST', jobsPath(s), {
    jobReference: { projectId: s.project, ...(s.location && { location: s.location }) },
    configuration: { dryRun: true, query: queryConfiguration(config, text) },
  }) as Job
  return Number(job.statistics?.totalBytesProcessed ?? 0)
}

async function run(config: RunnerConfig, text: string, { signal, timeoutMs }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  if (!text.trim()) throw new RunnerError('Query is empty.')
  const abort = new AbortController()
  const s = session(config, abort.signal)
  const jobId = `sightline_${randomUUID().replace(/-/g, '')}`
  let done = false
  const cancel = async () => {
    if (done) return
    done = true
    const token = await accessToken(config.jsonKeyFile, SCOPE, AbortSignal.timeout(5_000)).catch(() => '')
    const url = new URL(`${jobsPath(s)}/${jobId}/cancel`, API)
    if (s.location) url.searchParams.set('location', s.location)
    await tellVendor({ vendor: 'BigQuery', url, method: 'POST', headers: { authorization: `Bearer ${token}` } })
  }
  watch.onStop(async () => {
    abort.abort()
    await cancel()
  })
  const fail = (e: unknown) => watch.translate(e, (x) => /timeout|timed out/i.test(errorMessage(x)), (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  const log: string[] = []
  try {
    const limitMb = num(config, 'totalMBytesProcessedLimit', 0)
    if (limitMb > 0) {
      const mb = megabytes(await estimateBytes(config, text, abort.signal))
      log.push(`This query will process ${mb.toFixed(1)} MB.`)
      if (mb > limitMb) throw new RunnerError(`Larger than ${limitMb} MBytes will be processed (${mb} MBytes)`)
    }
    watch.check()
    await api(s, 'POST', jobsPath(s), {
      jobReference: { projectId: s.project, jobId, ...(s.location && { location: s.location }) },
      configuration: { query: queryConfiguration(config, text), ...(timeoutMs > 0 && { jobTimeoutMs: String(timeoutMs) }) },
    })
    const page = (pageToken?: string) => api(s, 'GET', `projects/${encodeURIComponent(s.project)}/queries/${jobId}`, undefined, {
      location: s.location, maxResults: String(PAGE_ROWS), pageToken, timeoutMs: String(POLL_WAIT_MS),
    }) as Promise<QueryResults>
    let first = await page()
    while (!first.jobComplete) {
      watch.check()
      // BigQuery holds each ask up to timeoutMs; one answered at once is not asked again at once
      const asked = performance.now()
      first = await page()
      if (!first.jobComplete) await sleep(Math.max(0, MIN_POLL_MS - (performance.now() - asked)), undefined, { signal: abort.signal })
    }
    done = true
    watch.check()
    const fields = first.schema?.fields ?? []
    if (first.totalBytesProcessed) log.push(`Processed ${megabytes(Number(first.totalBytesProcessed)).toFixed(1)} MB.`)
    const toRows = (r: QueryResults) => (r.rows ?? []).map((row) => fields.map((f, i) => cell(row.f[i]?.v, f)))
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        let current: QueryResults = first
        for (;;) {
          if (current.rows?.length) yield toRows(current)
          if (!current.pageToken) break
          watch.check()
          current = await page(current.pageToken)
        }
        watch.check()
      } catch (e) {
        throw fail(e)
      } finally {
        watch.dispose()
      }
    }
    return { columns: makeColumns(fields.map((f) => ({ name: f.name, type: columnType(f) }))), log, batches: batches() }
  } catch (e) {
    watch.dispose()
    throw fail(e)
  }
}

/** Datasets (paged), then each dataset's columns from INFORMATION_SCHEMA, as the established tool lists them. */
async function schema(config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]> {
  if (!bool(config, 'loadSchema')) return []
  const s = session(config, signal)
  const datasets: string[] = []
  let pageToken: string | undefined
  do {
    const answer = await api(s, 'GET', `projects/${encodeURIComponent(s.project)}/datasets`, undefined, { pageToken, maxResults: '1000' }) as
      { datasets?: { datasetReference: { datasetId: string } }[]; nextPageToken?: string }
    datasets.push(...(answer.datasets ?? []).map((d) => d.datasetReference.datasetId))
    pageToken = answer.nextPageToken
  } while (pageToken)
  const tables = new Map<string, TableSchema>()
  for (const dataset of datasets) {
    const stream = await run(config, `SELECT table_name, field_path, data_type FROM \`${s.project}.${dataset}\`.INFORMATION_SCHEMA.COLUMN_FIELD_PATHS ORDER BY table_name`, { signal, timeoutMs: 0 })
    for await (const batch of stream.batches) {
      for (const [table, field, type] of batch as Cell[][]) {
        const name = `${dataset}.${table}`
        let t = tables.get(name)
        if (!t) tables.set(name, (t = { name, columns: [] }))
        t.columns.push({ name: String(field), type: String(type) })
      }
    }
  }
  return [...tables.values()]
}

export const bigqueryRunner: Runner = {
  type: 'bigquery',
  name: 'BigQuery',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  setupUrl: 'https://cloud.google.com/bigquery/docs/use-service-accounts',
  configurationSchema: {
    type: 'object',
    properties: {
      projectId: { type: 'string', title: 'Project ID' },
      jsonKeyFile: { type: 'string', title: 'JSON Key File (the service account key, as JSON or base64)' },
      totalMBytesProcessedLimit: { type: 'number', title: 'Scanned Data Limit (MB)' },
      maximumBytesBilled: { type: 'number', title: 'Maximum Bytes Billed (BigQuery fails a query that would bill more)' },
      userDefinedFunctionResourceUri: { type: 'string', title: 'UDF Source URIs (i.e. gs://bucket/date_utils.js, gs://bucket/string_utils.js )' },
      useStandardSql: { type: 'boolean', title: 'Use Standard SQL', default: true },
      location: { type: 'string', title: 'Processing Location' },
      loadSchema: { type: 'boolean', title: 'Load Schema' },
      maximumBillingTier: { type: 'number', title: 'Maximum Billing Tier' },
    },
    order: ['projectId', 'jsonKeyFile', 'location', 'loadSchema', 'useStandardSql', 'totalMBytesProcessedLimit', 'maximumBytesBilled', 'maximumBillingTier', 'userDefinedFunctionResourceUri'],
    required: ['projectId', 'jsonKeyFile'],
    extra_options: ['maximumBillingTier', 'userDefinedFunctionResourceUri', 'maximumBytesBilled'],
    secret: ['jsonKeyFile'],
  },
  async test(config, signal) {
    const stream = await run(config, 'SELECT 1', { signal, timeoutMs: 30_000 }).catch((e) => {
      throw e instanceof RunnerError ? new RunnerError(e.message, 'connection') : e
    })
    for await (const _ of stream.batches) {
      // read to the end
    }
  },
  schema,
  run,
}
