import { BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, probeTcp, str } from './common.ts'
import { makeColumns } from './column-types.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type TableSchema } from './runner.ts'
import { splitStatements } from './statements.ts'

/** The parts of @databricks/sql this runner uses: small enough for tests to stand in for a warehouse. */
export interface DatabricksOperation {
  fetchChunk(options: { maxRows: number; disableBuffering?: boolean }): Promise<object[]>
  hasMoreRows(): Promise<boolean>
  getSchema(): Promise<{ columns: DatabricksColumnDesc[] } | null>
  cancel(): Promise<unknown>
  close(): Promise<unknown>
}
export interface DatabricksColumnDesc {
  columnName: string
  typeDesc: { types: { primitiveEntry?: { type: number } }[] }
  position?: number
}
export interface DatabricksSession {
  executeStatement(statement: string, options?: { queryTimeout?: number; maxRows?: number }): Promise<DatabricksOperation>
  getTables(request: { schemaName?: string }): Promise<DatabricksOperation>
  getColumns(request: { schemaName?: string; tableName?: string }): Promise<DatabricksOperation>
  close(): Promise<unknown>
}
export interface DatabricksClient {
  connect(options: Record<string, unknown>): Promise<unknown>
  openSession(request?: { configuration?: Record<string, string> }): Promise<DatabricksSession>
  close(): Promise<unknown>
}

const silent = { log: () => {} }
/** The real client, from a driver loaded on first use (it is large). */
const driverClient = async () => new (await import('@databricks/sql')).DBSQLClient({ logger: silent }) as unknown as DatabricksClient
let clientFactory: () => DatabricksClient | Promise<DatabricksClient> = driverClient

/** Tests only: replaces the driver's client (null restores it). */
export function setClientFactory(factory: (() => DatabricksClient) | null) {
  clientFactory = factory ?? driverClient
}

/** Thrift TTypeId → column type. */
const TYPES: Record<number, ColumnType> = {
  0: 'boolean', 1: 'integer', 2: 'integer', 3: 'integer', 4: 'integer', 5: 'float', 6: 'float', 15: 'float',
  8: 'datetime', 17: 'date',
}
const NO_DATA = 'No data was returned.'

/** JSON-friendly values: Date → ISO (dates without time), bigint → number when safe, binary → hex. */
function cell(value: unknown, type: ColumnType | null): Cell {
  if (value instanceof Date) return type === 'date' ? value.toISOString().slice(0, 10) : value.toISOString()
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value)
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return '0x' + Buffer.from(value).toString('hex')
  if (type === 'float' && typeof value === 'string' && Number.isFinite(Number(value))) return Number(value)
  return (value ?? null) as Cell
}

/** Accepts "dbc-….cloud.databricks.com", with or without https:// and a :port. */
function address(config: RunnerConfig): { host: string; port?: number } {
  const [host, port] = str(config, 'host').replace(/^https?:\/\//, '').replace(/\/.*$/, '').split(':')
  return { host, port: port ? Number(port) : undefined }
}

async function connect(config: RunnerConfig, statementTimeoutMs?: number) {
  const client = await clientFactory()
  try {
    const { host, port } = address(config)
    await client.connect({
      host,
      ...(port ? { port } : {}),
      path: str(config, 'http_path'),
      token: config.access_token == null ? '' : String(config.access_token),
      telemetryEnabled: false,
      retryMaxAttempts: 3,
      retriesTimeout: 30_000,
      socketTimeout: 60_000,
    })
    // SQL warehouses honour STATEMENT_TIMEOUT (seconds); clusters the per-statement queryTimeout
    const configuration = statementTimeoutMs ? { STATEMENT_TIMEOUT: String(Math.max(1, Math.ceil(statementTimeoutMs / 1000))) } : undefined
    const session = await client.openSession(configuration ? { configuration } : undefined)
    return { client, session }
  } catch (e) {
    await client.close().catch(() => {})
    throw new RunnerError(`Could not connect to Databricks at ${str(config, 'host')}: ${errorMessage(e)}`, 'connection')
  }
}

async function closeAll(...things: ({ close(): Promise<unknown> } | undefined)[]) {
  for (const t of things) await t?.close().catch(() => {})
}

const isTimeout = (e: unknown) => /timed? ?out|TIMEOUT/i.test(errorMessage(e))

/** Every row of a metadata operation (small results: databases, tables, columns). */
async function all(op: DatabricksOperation): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  do rows.push(...((await op.fetchChunk({ maxRows: BATCH_SIZE })) as Record<string, unknown>[]))
  while (await op.hasMoreRows())
  await op.close().catch(() => {})
  return rows
}

async function withSession<T>(config: RunnerConfig, f: (s: DatabricksSession) => Promise<T>): Promise<T> {
  const { client, session } = await connect(config)
  try {
    return await f(session)
  } catch (e) {
    throw e instanceof RunnerError ? e : new RunnerError(errorMessage(e))
  } finally {
    await closeAll(session, client)
  }
}

/** Databases (schemas) the token can see, for the editor's schema browser (`SHOW DATABASES`). */
export function listDatabases(config: RunnerConfig): Promise<string[]> {
  return withSession(config, async (s) =>
    (await all(await s.executeStatement('SHOW DATABASES'))).map((r) => String(r.databaseName ?? r.namespace ?? Object.values(r)[0])))
}

/** Tables of one database. */
export function listTables(config: RunnerConfig, database: string): Promise<string[]> {
  return withSession(config, async (s) => (await all(await s.getTables({ schemaName: database }))).map((r) => String(r.TABLE_NAME)))
}

/** Columns of one table, with their SQL type names. */
export function listColumns(config: RunnerConfig, database: string, table: string): Promise<{ name: string; type?: string }[]> {
  return withSession(config, async (s) =>
    (await all(await s.getColumns({ schemaName: database, tableName: table }))).map((r) => ({ name: String(r.COLUMN_NAME), type: r.TYPE_NAME == null ? undefined : String(r.TYPE_NAME) })))
}

export const databricksRunner: Runner = {
  type: 'databricks',
  name: 'Databricks',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: false,
  configurationSchema: {
    type: 'object',
    properties: {
      host: { type: 'string', title: 'Host' },
      http_path: { type: 'string', title: 'HTTP Path' },
      access_token: { type: 'string', title: 'Access Token' },
    },
    order: ['host', 'http_path', 'access_token'],
    required: ['host', 'http_path', 'access_token'],
    secret: ['access_token'],
  },

  async test(config, signal) {
    if (clientFactory === driverClient) {
      const { host, port } = address(config)
      await probeTcp(host, port ?? 443, TEST_CONNECT_TIMEOUT_MS).catch((e) => {
        throw new RunnerError(`Could not connect to Databricks at ${str(config, 'host')}: ${errorMessage(e)}`, 'connection')
      })
    }
    const stream = await databricksRunner.run(config, 'SELECT 1', { signal, timeoutMs: 30_000 })
    for await (const _ of stream.batches) {
      // drained
    }
  },

  /** Every column of every table in one catalog call; the editor can also browse with listDatabases/listTables/listColumns. */
  async schema(config, signal) {
    const watch = new Watch(signal, 120_000)
    try {
      return await withSession(config, async (s) => {
        const op = await s.getColumns({})
        watch.onStop(() => op.cancel())
        const tables = new Map<string, TableSchema>()
        for (const r of await all(op)) {
          watch.check()
          const name = `${r.TABLE_SCHEM}.${r.TABLE_NAME}`
          let t = tables.get(name)
          if (!t) tables.set(name, (t = { name, columns: [] }))
          t.columns.push({ name: String(r.COLUMN_NAME), type: r.TYPE_NAME == null ? undefined : String(r.TYPE_NAME) })
        }
        return [...tables.values()]
      })
    } catch (e) {
      throw watch.translate(e, () => false, (e) => e as Error)
    } finally {
      watch.dispose()
    }
  },

  async run(config, text, { signal, timeoutMs }) {
    const watch = new Watch(signal, timeoutMs)
    watch.check()
    const statements = splitStatements(text).map((s) => s.text)
    if (!statements.length) throw new RunnerError('Query is empty.')
    const { client, session } = await connect(config, timeoutMs)
    let op: DatabricksOperation | undefined
    watch.onStop(() => op?.cancel())
    const fail = (e: unknown) => watch.translate(e, isTimeout, (e) => (e instanceof RunnerError ? e : new RunnerError(errorMessage(e))))
    const release = async () => {
      watch.dispose()
      await closeAll(op, session, client)
    }
    try {
      // statements run one after another in one session; the last one's rows are the answer
      for (const [i, statement] of statements.entries()) {
        if (op) await op.close().catch(() => {})
        op = await session.executeStatement(statement, { queryTimeout: Math.max(1, Math.ceil(timeoutMs / 1000)) })
        watch.check()
        if (i < statements.length - 1) await all(op)
      }
      const operation = op!
      const first = await operation.fetchChunk({ maxRows: BATCH_SIZE })
      watch.check()
      const schema = await operation.getSchema()
      if (!schema?.columns?.length) {
        await release()
        return { columns: makeColumns([{ name: 'result', type: 'string' }]), log: [], batches: once([[NO_DATA]]) }
      }
      const descs = [...schema.columns].sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
      const types = descs.map((c) => TYPES[c.typeDesc.types[0]?.primitiveEntry?.type ?? -1] ?? 'string')
      const names = descs.map((c) => c.columnName)
      // the driver hands rows over as objects keyed by name: a repeated column name carries one value
      const toRows = (objects: object[]) => objects.map((o) => names.map((n, i) => cell((o as Record<string, unknown>)[n], types[i])))
      async function* batches(): AsyncGenerator<Cell[][]> {
        try {
          if (first.length) yield toRows(first)
          while (await operation.hasMoreRows()) {
            watch.check()
            const chunk = await operation.fetchChunk({ maxRows: BATCH_SIZE })
            watch.check()
            if (chunk.length) yield toRows(chunk)
          }
        } catch (e) {
          throw fail(e)
        } finally {
          await release()
        }
      }
      return { columns: makeColumns(names.map((name, i) => ({ name, type: types[i] }))), log: [], batches: batches() }
    } catch (e) {
      await release()
      throw fail(e)
    }
  },
}

async function* once(rows: Cell[][]): AsyncGenerator<Cell[][]> {
  yield rows
}
