import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { signV4, type AwsCredentials } from './aws-sign.ts'
import { assumeRole, sessionNameOf } from './aws-sts.ts'
import { makeColumns } from './column-types.ts'
import { Watch, bool, cancelledError, errorMessage, num, str } from './common.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type RunOptions, type RunStream, type TableSchema } from './runner.ts'
import { callVendor, tellVendor } from './vendor-http.ts'

/*
 * Amazon Athena over its JSON API (docs.aws.amazon.com/athena/latest/APIReference), signed with Signature Version 4
 * (aws-sign.ts): StartQueryExecution, GetQueryExecution until the query has succeeded or failed, GetQueryResults a
 * page at a time by NextToken as the reader asks, StopQueryExecution on a cancel or the time limit. The schema comes
 * from the Glue Data Catalog (GetDatabases, GetTables, both paged). Credentials are the source's access key and
 * sealed secret key, or, when the source names an IAM role, that role's temporary credentials from STS (aws-sts.ts)
 * for a session named after the executing user, as the established tool's assume-role mode does.
 */

const POLL_MS = 200
const PAGE_ROWS = 1_000

export function columnType(type: string): ColumnType | null {
  switch (type.toLowerCase()) {
    case 'boolean': return 'boolean'
    case 'tinyint': case 'smallint': case 'integer': case 'bigint': return 'integer'
    case 'double': case 'float': case 'real': case 'decimal': return 'float'
    case 'date': return 'date'
    case 'timestamp': case 'timestamp with time zone': return 'datetime'
    default: return 'string'
  }
}

/** Athena answers every value as text (VarCharValue); absent means NULL. */
function cell(v: string | undefined, type: ColumnType | null): Cell {
  if (v === undefined) return null
  if (type === 'integer') return Number.isSafeInteger(Number(v)) ? Number(v) : v
  if (type === 'float') return Number(v)
  if (type === 'boolean') return v === 'true'
  if (type === 'datetime') return v.replace(' ', 'T')
  return v
}

interface Client { region: string; credentials: AwsCredentials }

/** The region and the credentials to sign with: the source's keys, or its role's session for `who` (an e-mail). */
async function client(config: RunnerConfig, who: string | undefined, signal: AbortSignal): Promise<Client> {
  const region = str(config, 'region')
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) throw new RunnerError(`Athena needs an AWS region such as us-east-1 (got ${region || 'none'}).`, 'connection')
  const accessKeyId = str(config, 'aws_access_key')
  const secretAccessKey = config.aws_secret_key == null ? '' : String(config.aws_secret_key)
  if (!accessKeyId || !secretAccessKey) throw new RunnerError('Athena needs the AWS access key and secret key.', 'connection')
  const keys = { accessKeyId, secretAccessKey }
  const roleArn = str(config, 'iam_role')
  if (!roleArn) return { region, credentials: keys }
  const externalId = str(config, 'external_id') || undefined
  return { region, credentials: await assumeRole({ region, credentials: keys, roleArn, externalId, sessionName: sessionNameOf(who) }, signal) }
}

/** One JSON 1.1 call (`target` is `AmazonAthena.StartQueryExecution` …) to `service` in the client's region. */
async function call(c: Client, service: 'athena' | 'glue', target: string, body: object, signal: AbortSignal): Promise<Record<string, unknown>> {
  const url = new URL(`https://${service}.${c.region}.amazonaws.com/`)
  const text = JSON.stringify(body)
  const headers = signV4({ method: 'POST', url, body: text, region: c.region, service, credentials: c.credentials,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target } })
  delete headers.host
  const answer = await callVendor({ vendor: service === 'athena' ? 'Athena' : 'Glue', url, method: 'POST', headers, body: text, signal })
  const json = (answer.json ?? {}) as { __type?: string; Message?: string; message?: string }
  if (answer.status === 200) return json as Record<string, unknown>
  const type = (json.__type ?? '').split('#').pop() ?? ''
  const message = json.Message ?? json.message ?? answer.text ?? `status ${answer.status}`
  if (/ExpiredToken|UnrecognizedClient|InvalidSignature|AccessDenied|SignatureDoesNotMatch/.test(type)) {
    throw new RunnerError(`AWS refused the credentials (${type}): ${message}. Check the access key and secret key; a key or token may have expired.`, 'connection')
  }
  throw new RunnerError(type ? `${type}: ${message}` : message)
}

async function run(config: RunnerConfig, text: string, { signal, timeoutMs, user }: RunOptions): Promise<RunStream> {
  if (signal.aborted) throw cancelledError()
  if (!text.trim()) throw new RunnerError('Query is empty.')
  // the role's session first: a refusal by STS ends the run before anything starts in Athena
  const c = await client(config, user?.email, signal).catch((e: unknown) => {
    throw signal.aborted ? cancelledError() : e
  })
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  const abort = new AbortController()
  let id: string | undefined
  let finished = false
  const stop = async () => {
    if (finished || !id) return
    finished = true
    const url = new URL(`https://athena.${c.region}.amazonaws.com/`)
    const body = JSON.stringify({ QueryExecutionId: id })
    const headers = signV4({ method: 'POST', url, body, region: c.region, service: 'athena', credentials: c.credentials,
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AmazonAthena.StopQueryExecution' } })
    delete headers.host
    await tellVendor({ vendor: 'Athena', url, method: 'POST', headers, body })
  }
  watch.onStop(async () => {
    abort.abort()
    await stop()
  })
  const fail = (e: unknown) => watch.translate(e, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  try {
    const started = await call(c, 'athena', 'AmazonAthena.StartQueryExecution', {
      QueryString: text, ClientRequestToken: randomUUID(),
      QueryExecutionContext: { Database: str(config, 'schema', 'default') },
      ResultConfiguration: { OutputLocation: str(config, 's3_staging_dir') },
      WorkGroup: str(config, 'work_group', 'primary'),
      ...(bool(config, 'result_reuse_enable') && { ResultReuseConfiguration: { ResultReuseByAgeConfiguration: { Enabled: true, MaxAgeInMinutes: num(config, 'result_reuse_minutes', 60) } } }),
    }, abort.signal)
    id = String(started.QueryExecutionId)
    let state = 'QUEUED'
    let execution: { Status?: { State?: string; StateChangeReason?: string }; Statistics?: { DataScannedInBytes?: number } } = {}
    while (state === 'QUEUED' || state === 'RUNNING') {
      watch.check()
      const asked = performance.now()
      execution = (await call(c, 'athena', 'AmazonAthena.GetQueryExecution', { QueryExecutionId: id }, abort.signal)).QueryExecution as typeof execution
      state = execution.Status?.State ?? 'FAILED'
      if (state === 'QUEUED' || state === 'RUNNING') await sleep(Math.max(0, POLL_MS - (performance.now() - asked)), undefined, { signal: abort.signal })
    }
    finished = true
    watch.check()
    if (state !== 'SUCCEEDED') throw new RunnerError(execution.Status?.StateChangeReason ?? `The query ${state.toLowerCase()}.`)
    const page = (NextToken?: string) => call(c, 'athena', 'AmazonAthena.GetQueryResults', { QueryExecutionId: id, MaxResults: PAGE_ROWS, ...(NextToken && { NextToken }) }, abort.signal) as
      Promise<{ ResultSet: { Rows?: { Data: { VarCharValue?: string }[] }[]; ResultSetMetadata: { ColumnInfo: { Name: string; Type: string }[] } }; NextToken?: string }>
    const first = await page()
    const info = first.ResultSet.ResultSetMetadata.ColumnInfo
    const types = info.map((i) => columnType(i.Type))
    const toRows = (rows: { Data: { VarCharValue?: string }[] }[]) => rows.map((r) => info.map((_, i) => cell(r.Data[i]?.VarCharValue, types[i])))
    // a SELECT's first row is the column names
    const header = (first.ResultSet.Rows?.[0]?.Data ?? []).map((d) => d.VarCharValue)
    const skip = header.length === info.length && header.every((h, i) => h === info[i].Name) ? 1 : 0
    const scanned = Number(execution.Statistics?.DataScannedInBytes ?? 0)
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        let current = first
        let rows = (current.ResultSet.Rows ?? []).slice(skip)
        for (;;) {
          if (rows.length) yield toRows(rows)
          if (!current.NextToken) break
          watch.check()
          current = await page(current.NextToken)
          rows = current.ResultSet.Rows ?? []
        }
        watch.check()
      } catch (e) {
        throw fail(e)
      } finally {
        watch.dispose()
      }
    }
    return { columns: makeColumns(info.map((i, n) => ({ name: i.Name, type: types[n] }))), log: [`Data scanned: ${scanned} bytes.`], batches: batches() }
  } catch (e) {
    watch.dispose()
    await stop()
    throw fail(e)
  }
}

/** Every page of a Glue list. */
async function pages<T>(c: Client, target: string, body: object, key: string, signal: AbortSignal): Promise<T[]> {
  const all: T[] = []
  let NextToken: string | undefined
  do {
    const answer = await call(c, 'glue', target, { ...body, ...(NextToken && { NextToken }) }, signal)
    all.push(...((answer[key] as T[] | undefined) ?? []))
    NextToken = answer.NextToken as string | undefined
  } while (NextToken)
  return all
}

async function schema(config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]> {
  const c = await client(config, undefined, signal)
  const catalogs = str(config, 'catalog_ids').split(',').map((s) => s.trim()).filter(Boolean)
  const tables: TableSchema[] = []
  for (const catalog of catalogs.length ? catalogs : [undefined]) {
    const of = catalog ? { CatalogId: catalog } : {}
    for (const db of await pages<{ Name: string }>(c, 'AWSGlue.GetDatabases', of, 'DatabaseList', signal)) {
      type Column = { Name: string; Type?: string }
      const list = await pages<{ Name: string; StorageDescriptor?: { Columns?: Column[] }; PartitionKeys?: Column[] }>(c, 'AWSGlue.GetTables', { ...of, DatabaseName: db.Name }, 'TableList', signal)
      for (const t of list) {
        if (!t.StorageDescriptor) continue
        tables.push({ name: `${db.Name}.${t.Name}`, columns: [...(t.StorageDescriptor.Columns ?? []), ...(t.PartitionKeys ?? [])].map((col) => ({ name: col.Name, ...(col.Type && { type: col.Type }) })) })
      }
    }
  }
  return tables
}

export const athenaRunner: Runner = {
  type: 'athena',
  name: 'Amazon Athena',
  syntax: 'sql',
  supportsAutoLimit: false,
  supportsAnnotation: true,
  setupUrl: 'https://docs.aws.amazon.com/athena/latest/ug/security-iam-athena.html',
  configurationSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', title: 'AWS Region' },
      aws_access_key: { type: 'string', title: 'AWS Access Key' },
      aws_secret_key: { type: 'string', title: 'AWS Secret Key' },
      s3_staging_dir: { type: 'string', title: 'S3 Staging (Query Results) Bucket Path' },
      schema: { type: 'string', title: 'Schema Name', default: 'default' },
      glue: { type: 'boolean', title: 'Use Glue Data Catalog' },
      catalog_ids: { type: 'string', title: 'Enter Glue Data Catalog IDs, separated by commas (leave blank for default catalog)' },
      work_group: { type: 'string', title: 'Athena Work Group', default: 'primary' },
      cost_per_tb: { type: 'number', title: 'Athena cost per Tb scanned (USD)', default: 5 },
      result_reuse_enable: { type: 'boolean', title: 'Reuse Athena query results' },
      result_reuse_minutes: { type: 'number', title: 'Minutes to reuse Athena query results', default: 60 },
      iam_role: { type: 'string', title: 'IAM role to assume' },
      external_id: { type: 'string', title: 'External ID to be used while STS assume role' },
    },
    order: ['region', 'aws_access_key', 'aws_secret_key', 's3_staging_dir', 'schema', 'work_group', 'cost_per_tb', 'result_reuse_enable', 'result_reuse_minutes'],
    required: ['region', 's3_staging_dir', 'aws_access_key', 'aws_secret_key'],
    extra_options: ['glue', 'catalog_ids', 'cost_per_tb', 'result_reuse_enable', 'result_reuse_minutes', 'iam_role', 'external_id'],
    secret: ['aws_secret_key'],
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
