import postgres from 'postgres'
import { CONNECT_TIMEOUT_MS, BATCH_SIZE, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, num, raceStop, str } from './common.ts'
import { makeColumns } from './column-types.ts'
import { CopyKind } from './copy-text.ts'
import { copyRows } from './postgres-copy.ts'
import { backendOf, beginReported, endOrphanBackend } from './postgres-orphan.ts'
import { RunnerError, type Cell, type ColumnType, type RowBatch, type RunCuts, type Runner, type RunnerConfig, type RunStream, type StatementHandle, type TableSchema } from './runner.ts'
import { WarmConnections } from './warm-connections.ts'
import { splitStatements } from './statements.ts'
import { fitsTransaction, mayWrite, WRITES } from './write-guard.ts'

/** PostgreSQL type OIDs → column types (the established tool's map; everything else is text). */
const TYPES: Record<number, ColumnType> = {
  20: 'integer', 21: 'integer', 23: 'integer',
  700: 'float', 701: 'float', 1700: 'float',
  16: 'boolean',
  1082: 'date',
  1114: 'datetime', 1184: 'datetime',
}

/**
 * `2024-01-01 10:00:00+02` → `2024-01-01T10:00:00+02:00`. Plain character checks rather than regular expressions:
 * this runs once per timestamp cell, millions of times for a large result.
 */
const isoTimestamp = (x: string) => {
  // infinity, BC dates and years past 9999: as PostgreSQL wrote them
  if (x.length < 19 || x.charCodeAt(10) !== 32 || x.charCodeAt(4) !== 45 || x.charCodeAt(7) !== 45) return x
  const sign = x.charCodeAt(x.length - 3) // an offset of whole hours, "+02", gets its minutes
  const shortOffset = sign === 43 || sign === 45
  return `${x.slice(0, 10)}T${x.slice(11)}${shortOffset ? ':00' : ''}`
}

/** Values kept as JSON-friendly as the contract wants: no Date objects, no bigint, no Buffers. */
const parsers = {
  date: { to: 1082, from: [1082], serialize: (x: unknown) => String(x), parse: (x: string) => x },
  timestamp: { to: 1114, from: [1114, 1184], serialize: (x: unknown) => String(x), parse: isoTimestamp },
  int8: {
    to: 20, from: [20], serialize: (x: unknown) => String(x),
    parse: (x: string) => (Number.isSafeInteger(Number(x)) ? Number(x) : x),
  },
  numeric: {
    to: 1700, from: [1700], serialize: (x: unknown) => String(x),
    parse: (x: string) => (Number.isFinite(Number(x)) ? Number(x) : x),
  },
  bytea: { to: 17, from: [17], serialize: (x: unknown) => String(x), parse: (x: string) => x },
}

/**
 * How COPY's text of each type becomes the JSON that the parser above (or postgres.js's own) gives it; types not
 * listed go through their parser, or are text when they have none. The runner tests compare COPY with the cursor.
 */
const COPY_KINDS: Record<number, CopyKind> = {
  21: CopyKind.integer, 23: CopyKind.integer, 26: CopyKind.integer,
  20: CopyKind.bigInteger,
  700: CopyKind.float, 701: CopyKind.float,
  1700: CopyKind.numeric,
  16: CopyKind.boolean,
  1114: CopyKind.timestamp, 1184: CopyKind.timestamp,
  1082: CopyKind.text, 17: CopyKind.text,
}

/** The parts of postgres.js results that its types do not expose. */
interface DriverResult {
  command?: string
  columns?: postgres.ColumnList<string>
}

const SSL: Record<string, postgres.Options<{}>['ssl']> = {
  disable: false,
  prefer: 'prefer',
  require: 'require',
  'verify-ca': { rejectUnauthorized: true, checkServerIdentity: () => undefined },
  'verify-full': 'verify-full',
}

function connect(config: RunnerConfig, opts: { connectTimeoutMs: number; timeoutMs?: number; log?: { lines: string[] | null } }) {
  const connection: Record<string, string | number> = { application_name: 'Sightline', DateStyle: 'ISO, YMD' }
  if (opts.timeoutMs) connection.statement_timeout = Math.max(1, Math.round(opts.timeoutMs))
  return postgres({
    host: str(config, 'host', '127.0.0.1'),
    port: num(config, 'port', 5432),
    user: str(config, 'user') || undefined,
    pass: config.password == null ? undefined : String(config.password),
    database: str(config, 'dbname'),
    ssl: SSL[str(config, 'sslmode', 'prefer')] ?? 'prefer',
    max: 1,
    prepare: false,
    connect_timeout: opts.connectTimeoutMs / 1000,
    idle_timeout: 0,
    max_lifetime: null,
    connection,
    types: parsers,
    onnotice: (n) => opts.log?.lines?.push(`${n.severity ?? 'NOTICE'}: ${n.message}`),
  } as postgres.Options<{}>)
}

/** Errors that mean "could not get a working session" rather than "the SQL failed". */
function isConnectionError(e: unknown): boolean {
  const code = String((e as { code?: unknown })?.code ?? '')
  if (e instanceof postgres.PostgresError) return /^(08|28|3D|53|57P0[1-3])/.test(code)
  return code !== '' && code !== '57014'
}

function describe(config: RunnerConfig, e: unknown): Error {
  if (e instanceof RunnerError) return e
  if (isConnectionError(e)) {
    const where = `${str(config, 'host', '127.0.0.1')}:${num(config, 'port', 5432)}`
    const reason = (e as { code?: string }).code === 'CONNECT_TIMEOUT' ? 'the connection timed out.' : errorMessage(e)
    return new RunnerError(`Could not connect to PostgreSQL at ${where}: ${reason}`, 'connection')
  }
  return new RunnerError(errorMessage(e))
}

const isTimeout = (e: unknown) =>
  e instanceof postgres.PostgresError && e.code === '57014' && /statement timeout/.test(e.message)

function columnsOf(cols: readonly { name: string; type: number }[] | undefined | null) {
  return makeColumns((cols ?? []).map((c) => ({ name: c.name, type: TYPES[c.type] ?? 'string' })))
}

const NO_DATA = 'Query completed but it returned no data.'

export const postgresRunner: Runner = {
  type: 'pg',
  name: 'PostgreSQL',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  configurationSchema: {
    type: 'object',
    properties: {
      host: { type: 'string', title: 'Host', default: '127.0.0.1' },
      port: { type: 'number', title: 'Port', default: 5432 },
      user: { type: 'string', title: 'User' },
      password: { type: 'string', title: 'Password' },
      dbname: { type: 'string', title: 'Database Name' },
      sslmode: {
        type: 'string', title: 'SSL Mode', default: 'prefer',
        enum: ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'],
      },
    },
    order: ['host', 'port', 'user', 'password', 'dbname', 'sslmode'],
    required: ['dbname'],
    secret: ['password'],
  },

  async test(config, signal) {
    const sql = connect(config, { connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS, timeoutMs: 10_000 })
    const watch = new Watch(signal, 10_000)
    try {
      const q = sql`select 1`
      watch.onStop(() => q.cancel())
      await raceStop(watch, q.execute())
    } catch (e) {
      throw watch.translate(e, isTimeout, (e) => describe(config, e))
    } finally {
      watch.dispose()
      void sql.end({ timeout: 0 })
    }
  },

  async schema(config, signal) {
    const sql = connect(config, { connectTimeoutMs: CONNECT_TIMEOUT_MS, timeoutMs: 60_000 })
    const watch = new Watch(signal, 60_000)
    try {
      const q = sql`
        select c.table_schema as schema, c.table_name as table, c.column_name as column, c.data_type as type,
               c.ordinal_position as position
          from information_schema.columns c
         where c.table_schema not in ('pg_catalog', 'information_schema')
        union all
        select n.nspname, cl.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnum
          from pg_class cl
          join pg_namespace n on n.oid = cl.relnamespace
          join pg_attribute a on a.attrelid = cl.oid and a.attnum > 0 and not a.attisdropped
         where cl.relkind = 'm' and has_table_privilege(cl.oid, 'select') and has_schema_privilege(n.oid, 'usage')
         order by 1, 2, 5`
      watch.onStop(() => q.cancel())
      const rows = await raceStop(watch, q.execute())
      const tables = new Map<string, TableSchema>()
      for (const r of rows) {
        const name = r.schema === 'public' ? r.table : `${r.schema}.${r.table}`
        let t = tables.get(name)
        if (!t) tables.set(name, (t = { name, columns: [] }))
        t.columns.push({ name: r.column, type: r.type })
      }
      return [...tables.values()]
    } catch (e) {
      throw watch.translate(e, isTimeout, (e) => describe(config, e))
    } finally {
      watch.dispose()
      void sql.end({ timeout: 0 })
    }
  },

  async run(config, text, { signal, timeoutMs, onStatement, maxCellBytes }) {
    const watch = new Watch(signal, timeoutMs)
    watch.check()
    const key = JSON.stringify([config, timeoutMs])
    const reused = warm.take(key)
    const writes: Writes = !mayWrite(text) ? 'no' : fitsTransaction(text, 'postgres') ? 'in transaction' : 'outside a transaction'
    // a statement run in a transaction is reported with it, once it is open (runOn)
    const reporting = (conn: RunConnection) => (onStatement && writes !== 'in transaction' && reportBackend(conn, onStatement, writes), conn)
    const options = { maxCellBytes, writes, onStatement }
    const first = reporting(reused ?? openRunConnection(config, timeoutMs))
    try {
      return await runOn(first, key, config, text, watch, options)
    } catch (e) {
      // a warm connection the server has since closed (restart, idle timeout): once more on a new one, unless a commit
      // was sent on it (the changes may be in)
      if (!reused || first.committing || watch.reason || !isConnectionError(e) && !(e instanceof RunnerError && e.kind === 'connection')) throw e
      return runOn(reporting(openRunConnection(config, timeoutMs)), key, config, text, watch, options)
    }
  },

  cancelOrphan: (config, handle) => endOrphanBackend(connect(config, { connectTimeoutMs: CONNECT_TIMEOUT_MS, timeoutMs: 10_000 }), handle),
}

/** A connection for runs, whose notices go to the log of the run using it. */
interface RunConnection {
  sql: postgres.Sql<{}>
  log: { lines: string[] | null }
  /** Its backend, asked once, for runs that report where their statement runs (postgres-orphan.ts). */
  backend?: Promise<StatementHandle | undefined>
  /** A run's commit has been sent on it. */
  committing?: boolean
}

/**
 * Whether a run's text may write, and if so whether it runs in a transaction the worker commits (everything but
 * transaction control and the commands PostgreSQL refuses in a transaction block: write-guard.ts).
 */
type Writes = 'no' | 'in transaction' | 'outside a transaction'

interface RunOnOptions {
  maxCellBytes?: number
  writes: Writes
  onStatement?: (handle: StatementHandle) => void
}

/** Tells a run which backend its statement runs on; the question goes ahead of the statement on the connection. */
function reportBackend(conn: RunConnection, onStatement: (handle: StatementHandle) => void, writes: Writes) {
  conn.backend ??= backendOf(conn.sql)
  void conn.backend.then((handle) => handle && onStatement(writes === 'no' ? handle : { ...handle, [WRITES]: 1 }))
}

/**
 * Opens the transaction a statement that may write runs in, and reports it; where the engine does not say which
 * backend a session is (some wire-compatible engines), the statement runs as it is. Resolves with its commit.
 */
async function openTransaction(conn: RunConnection, watch: Watch, onStatement?: (handle: StatementHandle) => void) {
  const backend = await raceStop(watch, (conn.backend ??= backendOf(conn.sql)))
  if (!backend) return async () => {}
  const { handle, commit } = beginReported(conn.sql, backend)
  if (onStatement) void handle.then(onStatement, () => {})
  return () => ((conn.committing = true), commit())
}

const warm = new WarmConnections<RunConnection>({
  close: (c) => c.sql.end({ timeout: 1 }).catch(() => {}),
  maxIdlePerKey: 8,
  idleMs: 60_000,
})

/** Idle connections of every source, closed (tests, shutdown). */
export async function closeWarmPostgresConnections() {
  await Promise.all(releasing) // resets still on their way back to the pool
  await warm.closeAll()
}

/** Connections being reset after a run, not yet back in the pool. */
const releasing = new Set<Promise<void>>()
/** How many are idle and ready (the reset after a run finishes shortly after the run). */
export const warmPostgresConnections = () => warm.size

function openRunConnection(config: RunnerConfig, timeoutMs: number): RunConnection {
  const log = { lines: null as string[] | null }
  return { sql: connect(config, { connectTimeoutMs: CONNECT_TIMEOUT_MS, timeoutMs, log }), log }
}

/**
 * Puts a connection back for the next run once everything the query may have changed in its session is undone
 * (an open transaction, settings, the role, prepared statements, temporary tables, advisory locks); a connection
 * that failed, or whose run was stopped, is closed instead.
 */
async function release(key: string, conn: RunConnection, healthy: boolean) {
  conn.log.lines = null
  if (healthy) {
    try {
      // sent together (postgres.js pipelines them on the one connection): one round trip
      await Promise.all([
        conn.sql.unsafe('rollback'), conn.sql.unsafe('discard all'), conn.sql.unsafe('select pg_advisory_unlock_all()'),
      ])
      return warm.give(key, conn)
    } catch { /* closed below */ }
  }
  await conn.sql.end({ timeout: 1 }).catch(() => {})
}

async function runOn(conn: RunConnection, key: string, config: RunnerConfig, text: string, watch: Watch, { maxCellBytes, writes, onStatement }: RunOnOptions): Promise<RunStream> {
  const log: string[] = []
  conn.log.lines = log
  const { sql } = conn
  let healthy = true
  const fail = (e: unknown) => {
    if (watch.reason || isConnectionError(e)) healthy = false
    return watch.translate(e, isTimeout, (e) => describe(config, e))
  }
  // the reset runs behind the caller's back: the rows are all read by then, and the next run waits for nothing
  const done = () => {
    const released = release(key, conn, healthy && !watch.reason).finally(() => releasing.delete(released))
    releasing.add(released)
  }
  try {
    conn.committing = false
    // committed once the answer is read: a worker that dies first leaves nothing behind
    const commit = writes === 'in transaction' ? await openTransaction(conn, watch, onStatement) : async () => {}
    // One statement that returns rows streams through COPY (postgres-copy.ts), its long values cut by the engine.
    const statements = splitStatements(text)
    const copied = statements.length === 1
      ? await copyRows(sql, statements[0].text, watch, COPY_KINDS, maxCellBytes, writes === 'in transaction')
      : undefined
    if (!copied) {
      // Several statements, or one COPY cannot wrap (SHOW, EXPLAIN, or none that returns rows): the simple protocol,
      // which does not stream; the last result set is the answer.
      const q = sql.unsafe(text).values()
      watch.onStop(() => q.cancel())
      const results = await raceStop(watch, q.execute())
      await raceStop(watch, commit())
      // one Result per row-returning statement (an array of them when there are several)
      const list = ((results as unknown as DriverResult).command === undefined ? results : [results]) as unknown as postgres.RowList<Cell[][]>[]
      const last = [...list].reverse().find((r) => r?.columns?.length)
      if (!last) throw new RunnerError(NO_DATA)
      watch.dispose()
      done()
      return { columns: columnsOf(last.columns), log, batches: single(last as unknown as Cell[][]) }
    }
    const iterator = copied.batches
    const cuts: RunCuts = { cells: false, rows: false }
    const first = await raceStop(watch, iterator.next())
    async function* batches(): AsyncGenerator<RowBatch> {
      let finished = false
      try {
        if (!first.done) {
          cuts.cells = copied!.cellsCut()
          yield first.value
          while (true) {
            watch.check()
            const next = await raceStop(watch, iterator.next())
            if (next.done) break
            cuts.cells = copied!.cellsCut()
            yield next.value
          }
        }
        await raceStop(watch, commit())
        finished = true
      } catch (e) {
        throw fail(e)
      } finally {
        if (!finished) {
          // left early (row cap, an error): the statement may still be producing rows, so this connection is not reused
          healthy = false
          await Promise.resolve(iterator.return?.()).catch(() => {})
        }
        watch.dispose()
        done()
      }
    }
    return { columns: columnsOf(copied.columns), log, batches: batches(), cuts }
  } catch (e) {
    const error = fail(e)
    watch.dispose()
    done()
    throw error
  }
}

async function* single(rows: Cell[][]): AsyncGenerator<Cell[][]> {
  for (let i = 0; i < rows.length; i += BATCH_SIZE) yield rows.slice(i, i + BATCH_SIZE)
}
