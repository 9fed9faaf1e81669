import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { databricksRunner as runner, listColumns, listDatabases, listTables, setClientFactory, type DatabricksClient, type DatabricksColumnDesc, type DatabricksOperation, type DatabricksSession } from '../../src/runners/index.ts'
import { collect, expectRunnerError, opts, waitUntil, cellBatches, WAIT_MS } from './support.ts'

/*
 * No warehouse runs here, so these tests replace the driver's client at its boundary: the runner's own mapping,
 * streaming, cancellation and clean-up code runs against a fake session and operations that behave like
 * @databricks/sql's (objects per row, a Thrift schema, fetchChunk/hasMoreRows, cancel and close).
 */
const T = { BOOLEAN: 0, INT: 3, BIGINT: 4, DOUBLE: 6, STRING: 7, TIMESTAMP: 8, DECIMAL: 15, DATE: 17 }
const col = (columnName: string, type: number, position: number): DatabricksColumnDesc =>
  ({ columnName, position, typeDesc: { types: [{ primitiveEntry: { type } }] } })

interface Script {
  columns?: DatabricksColumnDesc[]
  rows?: object[]
  /** fetchChunk waits until cancel() (then rejects like the driver), or fails with this error. */
  hang?: boolean
  fail?: string
}

class FakeOperation implements DatabricksOperation {
  offset = 0
  cancelled = false
  closed = false
  private wake?: (e: Error) => void
  constructor(private script: Script) {}
  async fetchChunk({ maxRows }: { maxRows: number }) {
    if (this.closed) throw new Error('operation is closed')
    if (this.script.fail) throw new Error(this.script.fail)
    if (this.script.hang) await new Promise((_, reject) => (this.wake = reject))
    const rows = (this.script.rows ?? []).slice(this.offset, this.offset + maxRows)
    this.offset += rows.length
    return rows
  }
  async hasMoreRows() {
    return !this.closed && this.offset < (this.script.rows?.length ?? 0)
  }
  async getSchema() {
    return this.script.columns ? { columns: this.script.columns } : null
  }
  async cancel() {
    this.cancelled = true
    this.wake?.(new Error('The operation was canceled by a client'))
    return {}
  }
  async close() {
    this.closed = true
    return {}
  }
}

/** A warehouse that answers each statement from `scripts` (by exact text, or '*'). */
function fakeWarehouse(scripts: Record<string, Script>, opts: { failOpen?: string } = {}) {
  const state = {
    connectOptions: undefined as Record<string, unknown> | undefined,
    sessionConfig: undefined as Record<string, string> | undefined,
    statements: [] as { text: string; options?: object }[],
    operations: [] as FakeOperation[],
    sessionClosed: false,
    clientClosed: false,
    metadata: [] as object[],
  }
  const op = (s: Script) => {
    const o = new FakeOperation(s)
    state.operations.push(o)
    return o
  }
  const session: DatabricksSession = {
    async executeStatement(text, options) {
      state.statements.push({ text, options })
      const s = scripts[text] ?? scripts['*']
      if (!s) throw new Error(`[PARSE_SYNTAX_ERROR] Syntax error at or near '${text.split(' ')[0]}'`)
      return op(s)
    },
    async getTables(request) {
      state.metadata.push({ getTables: request })
      return op({ rows: [{ TABLE_SCHEM: request.schemaName, TABLE_NAME: 'orders' }, { TABLE_SCHEM: request.schemaName, TABLE_NAME: 'users' }] })
    },
    async getColumns(request) {
      state.metadata.push({ getColumns: request })
      return op({ rows: [
        { TABLE_SCHEM: 'sales', TABLE_NAME: 'orders', COLUMN_NAME: 'id', TYPE_NAME: 'BIGINT' },
        { TABLE_SCHEM: 'sales', TABLE_NAME: 'orders', COLUMN_NAME: 'total', TYPE_NAME: 'DECIMAL(10,2)' },
        { TABLE_SCHEM: 'web', TABLE_NAME: 'hits', COLUMN_NAME: 'at', TYPE_NAME: 'TIMESTAMP' },
      ] })
    },
    async close() {
      state.sessionClosed = true
    },
  }
  const client: DatabricksClient = {
    async connect(options) {
      state.connectOptions = options
      return client
    },
    async openSession(request) {
      if (opts.failOpen) throw new Error(opts.failOpen)
      state.sessionConfig = request?.configuration
      return session
    },
    async close() {
      state.clientClosed = true
    },
  }
  setClientFactory(() => client)
  return state
}

afterEach(() => setClientFactory(null))

const config = { host: 'https://dbc-1234.cloud.databricks.com/', http_path: '/sql/1.0/warehouses/abc', access_token: 'dapi-secret' }
const signal = () => new AbortController().signal

describe('Databricks runner (driver boundary faked)', () => {
  it('connects with the host, HTTP path and token, and test() runs SELECT 1', async () => {
    const w = fakeWarehouse({ 'SELECT 1': { columns: [col('1', T.INT, 1)], rows: [{ 1: 1 }] } })
    await runner.test(config, signal())
    expect(w.connectOptions).toMatchObject({ host: 'dbc-1234.cloud.databricks.com', path: '/sql/1.0/warehouses/abc', token: 'dapi-secret', telemetryEnabled: false })
    expect([w.sessionClosed, w.clientClosed]).toEqual([true, true])
  })

  it('reports a failed session as a connection error with the driver message', async () => {
    fakeWarehouse({}, { failOpen: 'Request failed with status code 403: Invalid access token.' })
    await expectRunnerError(runner.test(config, signal()), 'connection', 'Could not connect to Databricks at https://dbc-1234.cloud.databricks.com/: Request failed with status code 403: Invalid access token.')
  })

  it('maps types and values: nulls, dates, timestamps, decimals, booleans, bigints, unicode', async () => {
    const w = fakeWarehouse({ '*': {
      columns: [col('id', T.INT, 1), col('big', T.BIGINT, 2), col('amount', T.DECIMAL, 3), col('ratio', T.DOUBLE, 4),
        col('ok', T.BOOLEAN, 5), col('name', T.STRING, 6), col('day', T.DATE, 7), col('at', T.TIMESTAMP, 8)],
      rows: [
        { id: 1, big: 9007199254740993n, amount: '12.34', ratio: 0.5, ok: true, name: 'héllo ✓ 日本 🎉', day: new Date('2024-02-29T00:00:00Z'), at: new Date('2024-01-02T03:04:05.678Z') },
        { id: null, big: 42n, amount: null, ratio: null, ok: null, name: null, day: null, at: null },
      ],
    } })
    const stream = await runner.run(config, 'select * from t', opts(60_000))
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'integer'], ['big', 'integer'], ['amount', 'float'], ['ratio', 'float'], ['ok', 'boolean'], ['name', 'string'], ['day', 'date'], ['at', 'datetime'],
    ])
    expect((await collect(stream)).rows).toEqual([
      [1, '9007199254740993', 12.34, 0.5, true, 'héllo ✓ 日本 🎉', '2024-02-29', '2024-01-02T03:04:05.678Z'],
      [null, 42, null, null, null, null, null, null],
    ])
    expect(w.sessionConfig).toEqual({ STATEMENT_TIMEOUT: '60' })
    expect(w.statements[0].options).toMatchObject({ queryTimeout: 60 })
    expect(w.operations[0].closed && w.sessionClosed && w.clientClosed).toBe(true)
  })

  it('runs statements one by one and answers with the last; a statement without rows says so', async () => {
    const w = fakeWarehouse({
      'use catalog main': {},
      'select 2 as n': { columns: [col('n', T.INT, 1)], rows: [{ n: 2 }] },
      'create table x (a int)': {},
    })
    expect((await collect(await runner.run(config, 'use catalog main;\nselect 2 as n; -- two', opts()))).rows).toEqual([[2]])
    expect(w.statements.map((s) => s.text)).toEqual(['use catalog main', 'select 2 as n'])
    const none = await runner.run(config, 'create table x (a int)', opts())
    expect(none.columns.map((c) => c.name)).toEqual(['result'])
    expect((await collect(none)).rows).toEqual([['No data was returned.']])
    await expectRunnerError(runner.run(config, 'selec 1', opts()), 'query', "[PARSE_SYNTAX_ERROR] Syntax error at or near 'selec'")
  })

  it('streams a large result in batches and closes everything when the consumer stops early', async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ n: i + 1 }))
    const w = fakeWarehouse({ '*': { columns: [col('n', T.BIGINT, 1)], rows } })
    const { rows: all, batches } = await collect(await runner.run(config, 'select n from big', opts()))
    expect([all.length, all.at(-1)![0], batches]).toEqual([200_000, 200_000, 40])
    const stream = await runner.run(config, 'select n from big', opts())
    for await (const batch of cellBatches(stream)) {
      expect(batch.length).toBe(5000)
      break
    }
    const op = w.operations.at(-1)!
    expect([op.offset, op.closed, w.sessionClosed, w.clientClosed]).toEqual([5000, true, true, true])
  })

  it('cancelling cancels the operation on the warehouse', async () => {
    const w = fakeWarehouse({ '*': { columns: [col('n', T.INT, 1)], hang: true } })
    const controller = new AbortController()
    const run = runner.run(config, 'select slow()', { signal: controller.signal, timeoutMs: 600_000 })
    await waitUntil(async () => w.operations.length === 1) // the statement is running (and never ends by itself)
    controller.abort()
    await expectRunnerError(run, 'cancelled', 'Query cancelled by user.')
    expect(w.operations[0].cancelled).toBe(true)
    expect(w.sessionClosed).toBe(true)
  })

  it('a statement timeout from the warehouse is reported as a timeout; the backstop cancels otherwise', async () => {
    fakeWarehouse({ '*': { columns: [col('n', T.INT, 1)], fail: 'Query has timed out after 1 seconds (STATEMENT_TIMEOUT)' } })
    await expectRunnerError(runner.run(config, 'select slow()', opts(1_000)), 'timeout', /time limit of 1 s/)
    const w = fakeWarehouse({ '*': { columns: [col('n', T.INT, 1)], hang: true } })
    await expectRunnerError(runner.run(config, 'select slow()', opts(200)), 'timeout', /time limit of 200 ms/) // it never ends by itself
    expect(w.operations[0].cancelled).toBe(true)
  })

  it('lists databases, tables and columns, and the whole schema in one catalog call', async () => {
    const w = fakeWarehouse({ 'SHOW DATABASES': { columns: [col('databaseName', T.STRING, 1)], rows: [{ databaseName: 'default' }, { databaseName: 'sales' }] } })
    expect(await listDatabases(config)).toEqual(['default', 'sales'])
    expect(await listTables(config, 'sales')).toEqual(['orders', 'users'])
    expect(await listColumns(config, 'sales', 'orders')).toEqual([
      { name: 'id', type: 'BIGINT' }, { name: 'total', type: 'DECIMAL(10,2)' }, { name: 'at', type: 'TIMESTAMP' },
    ])
    expect(w.metadata).toEqual([{ getTables: { schemaName: 'sales' } }, { getColumns: { schemaName: 'sales', tableName: 'orders' } }])
    expect(await runner.schema(config, signal())).toEqual([
      { name: 'sales.orders', columns: [{ name: 'id', type: 'BIGINT' }, { name: 'total', type: 'DECIMAL(10,2)' }] },
      { name: 'web.hits', columns: [{ name: 'at', type: 'TIMESTAMP' }] },
    ])
  })

  it('with the real driver, an unreachable warehouse fails test() as a connection error', async () => {
    const port = await freePort()
    const refused = await expectRunnerError(runner.test({ ...config, host: `127.0.0.1:${port}` }, signal()), 'connection', /Could not connect to Databricks at 127\.0\.0\.1:\d+: .*ECONNREFUSED/)
    expect(refused).toBeLessThan(WAIT_MS) // no retrying
  })
})
