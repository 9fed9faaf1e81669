import { createHash, createPrivateKey, createPublicKey, createSign, randomUUID, type KeyObject } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { makeColumns } from './column-types.ts'
import { Watch, bool, errorMessage, str } from './common.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type RunOptions, type RunStream, type TableSchema } from './runner.ts'
import { callVendor, credentialsError, tellVendor } from './vendor-http.ts'

/*
 * Snowflake over its SQL API v2 (docs.snowflake.com/en/developer-guide/sql-api): a statement is submitted
 * asynchronously, its status asked until it has a result, and the result read a partition at a time as the reader
 * asks; a cancel or the time limit posts the statement's cancel. The API signs in with a key pair: a JWT signed with
 * the user's private key (sealed `private_key_File`, base64 of the PEM, with its passphrase). It does not accept a
 * password, so a source with only a password is told so.
 */

interface RowType { name: string; type: string; scale?: number }
interface ResultSet {
  code?: string
  message?: string
  statementHandle?: string
  resultSetMetaData?: { numRows?: number; rowType: RowType[]; partitionInfo?: { rowCount: number }[] }
  data?: (string | null)[][]
}

const MIN_POLL_MS = 200

export function columnType(t: RowType): ColumnType | null {
  switch (t.type.toLowerCase()) {
    case 'fixed': return t.scale ? 'float' : 'integer'
    case 'real': return 'float'
    case 'boolean': return 'boolean'
    case 'date': return 'date'
    case 'timestamp_ntz': case 'timestamp_ltz': case 'timestamp_tz': return 'datetime'
    default: return 'string'
  }
}

/** The API writes every value as text: numbers, `true`, days since 1970 for dates, epoch seconds for timestamps. */
function cell(v: string | null, type: ColumnType | null): Cell {
  if (v === null) return null
  switch (type) {
    case 'integer': return Number.isSafeInteger(Number(v)) ? Number(v) : v
    case 'float': return Number(v)
    case 'boolean': return v === 'true' || v === '1'
    case 'date': return new Date(Number(v) * 86_400_000).toISOString().slice(0, 10)
    // TIMESTAMP_TZ is "seconds offset-minutes"; the instant is the seconds
    case 'datetime': return new Date(Number(v.split(' ')[0]) * 1000).toISOString()
    default: return v
  }
}

interface Target { base: URL; account: string; user: string; key: KeyObject }

function target(config: RunnerConfig): Target {
  const account = str(config, 'account')
  const user = str(config, 'user')
  if (!account || !user) throw new RunnerError('Snowflake needs an account and a user.', 'connection')
  const region = str(config, 'region')
  const host = str(config, 'host') || `${account}${region && region !== 'us-west' ? `.${region}` : ''}.snowflakecomputing.com`
  let base: URL
  try {
    base = new URL(/^https?:\/\//.test(host) ? host : `https://${host}`)
  } catch {
    throw new RunnerError(`Snowflake's host is not a host name: ${host}`, 'connection')
  }
  const pem = str(config, 'private_key_File')
  if (!pem) {
    throw new RunnerError('Snowflake\'s SQL API signs in with a key pair only: set the Private Key (and its password if it has one); a password alone cannot be used.', 'connection')
  }
  let key: KeyObject
  try {
    const text = pem.includes('BEGIN') ? pem : Buffer.from(pem, 'base64').toString('utf8')
    key = createPrivateKey({ key: text, format: 'pem', ...(config.private_key_pwd ? { passphrase: String(config.private_key_pwd) } : {}) })
  } catch (e) {
    throw new RunnerError(`The Snowflake private key cannot be read: ${errorMessage(e)}`, 'connection')
  }
  return { base, account: account.split('.')[0].toUpperCase(), user: user.toUpperCase(), key }
}

/** The key-pair JWT (iss: account.user.SHA256:<fingerprint of the public key>), valid for an hour. */
function jwt(t: Target): string {
  const der = createPublicKey(t.key).export({ type: 'spki', format: 'der' })
  const fingerprint = `SHA256:${createHash('sha256').update(der).digest('base64')}`
  const now = Math.floor(Date.now() / 1000)
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const body = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc({ iss: `${t.account}.${t.user}.${fingerprint}`, sub: `${t.account}.${t.user}`, iat: now, exp: now + 3600 })}`
  return `${body}.${createSign('RSA-SHA256').update(body).sign(t.key).toString('base64url')}`
}

function headers(t: Target): Record<string, string> {
  return { authorization: `Bearer ${jwt(t)}`, 'x-snowflake-authorization-token-type': 'KEYPAIR_JWT', accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'Sightline' }
}

async function ask(t: Target, method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: unknown): Promise<{ status: number; set: ResultSet }> {
  const answer = await callVendor({ vendor: 'Snowflake', url: new URL(path, t.base), method, headers: headers(t), signal, ...(body !== undefined && { body: JSON.stringify(body) }) })
  const set = (answer.json ?? {}) as ResultSet
  const refused = credentialsError('Snowflake', answer.status, set.message ?? answer.text)
  if (refused) throw refused
  if (answer.status === 422 || (answer.status >= 400 && set.message)) throw new RunnerError(set.message ?? `Snowflake answered ${answer.status}`)
  if (answer.status !== 200 && answer.status !== 202) throw new RunnerError(`Snowflake answered ${answer.status}: ${answer.text.slice(0, 500) || 'no details'}`, 'connection')
  return { status: answer.status, set }
}

async function run(config: RunnerConfig, text: string, { signal, timeoutMs }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs)
  watch.check()
  if (!text.trim()) throw new RunnerError('Query is empty.')
  const t = target(config)
  const abort = new AbortController()
  let handle: string | undefined
  let done = false
  const cancel = async () => {
    if (done || !handle) return
    done = true
    await tellVendor({ vendor: 'Snowflake', url: new URL(`api/v2/statements/${handle}/cancel`, t.base), method: 'POST', headers: headers(t), body: '{}' })
  }
  watch.onStop(async () => {
    abort.abort()
    await cancel()
  })
  const fail = (e: unknown) => watch.translate(e, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  try {
    const requestId = randomUUID()
    const submitted = await ask(t, 'POST', `api/v2/statements?async=true&requestId=${requestId}`, abort.signal, {
      statement: text,
      ...(timeoutMs > 0 && { timeout: Math.max(1, Math.ceil(timeoutMs / 1000)) }),
      ...(str(config, 'warehouse') && { warehouse: str(config, 'warehouse') }),
      ...(str(config, 'database') && { database: str(config, 'database') }),
    })
    handle = submitted.set.statementHandle
    let answer = submitted
    while (answer.status === 202 || !answer.set.resultSetMetaData) {
      watch.check()
      const asked = performance.now()
      answer = await ask(t, 'GET', `api/v2/statements/${handle}`, abort.signal)
      if (answer.status === 202) await sleep(Math.max(0, MIN_POLL_MS - (performance.now() - asked)), undefined, { signal: abort.signal })
    }
    done = true
    watch.check()
    const meta = answer.set.resultSetMetaData!
    const lower = bool(config, 'lower_case_columns')
    const types = meta.rowType.map(columnType)
    const toRows = (data: (string | null)[][] = []) => data.map((r) => r.map((v, i) => cell(v, types[i])))
    const first = answer.set
    const partitions = meta.partitionInfo?.length ?? 1
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        if (first.data?.length) yield toRows(first.data)
        for (let p = 1; p < partitions; p++) {
          watch.check()
          const part = await ask(t, 'GET', `api/v2/statements/${handle}?partition=${p}`, abort.signal)
          watch.check()
          if (part.set.data?.length) yield toRows(part.set.data)
        }
        watch.check()
      } catch (e) {
        throw fail(e)
      } finally {
        watch.dispose()
      }
    }
    return { columns: makeColumns(meta.rowType.map((r, i) => ({ name: lower ? r.name.toLowerCase() : r.name, type: types[i] }))), log: [], batches: batches() }
  } catch (e) {
    watch.dispose()
    await cancel()
    throw fail(e)
  }
}

async function schema(config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]> {
  const database = str(config, 'database')
  const stream = await run(config, `SHOW COLUMNS IN DATABASE ${JSON.stringify(database)}`, { signal, timeoutMs: 0 })
  const names = stream.columns.map((c) => c.name.toLowerCase())
  const [s, tb, col] = ['schema_name', 'table_name', 'column_name'].map((n) => names.indexOf(n))
  const tables = new Map<string, TableSchema>()
  for await (const batch of stream.batches) {
    for (const row of batch as Cell[][]) {
      if (row[s] === 'INFORMATION_SCHEMA') continue
      const name = `${row[s]}.${row[tb]}`
      let table = tables.get(name)
      if (!table) tables.set(name, (table = { name, columns: [] }))
      table.columns.push({ name: String(row[col]) })
    }
  }
  return [...tables.values()]
}

export const snowflakeRunner: Runner = {
  type: 'snowflake',
  name: 'Snowflake',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  setupUrl: 'https://docs.snowflake.com/en/developer-guide/sql-api/authenticating',
  configurationSchema: {
    type: 'object',
    properties: {
      account: { type: 'string', title: 'Account' },
      user: { type: 'string', title: 'User' },
      password: { type: 'string', title: 'Password (not accepted by the SQL API: use the key pair)' },
      private_key_File: { type: 'string', title: 'Private Key (PEM, or base64 of it)' },
      private_key_pwd: { type: 'string', title: 'Private Key Password' },
      warehouse: { type: 'string', title: 'Warehouse' },
      database: { type: 'string', title: 'Database' },
      region: { type: 'string', title: 'Region', default: 'us-west' },
      lower_case_columns: { type: 'boolean', title: 'Lower Case Column Names in Results', default: false },
      host: { type: 'string', title: 'Host' },
    },
    order: ['account', 'user', 'password', 'private_key_File', 'private_key_pwd', 'warehouse', 'database', 'region', 'host'],
    required: ['user', 'account', 'database', 'warehouse'],
    extra_options: ['host'],
    secret: ['password', 'private_key_File', 'private_key_pwd'],
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
