import type mysql from 'mysql2'
import { BATCH_BYTES, BATCH_SIZE, CONNECT_TIMEOUT_MS, TEST_CONNECT_TIMEOUT_MS, Watch, errorMessage, bool, num, raceStop, str } from './common.ts'
import { makeColumns } from './column-types.ts'
import { endOrphanConnection } from './mysql-orphan.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type TableSchema } from './runner.ts'
import { splitStatements } from './statements.ts'
import { fitsTransaction, IN_TRANSACTION, mayWrite, WRITES } from './write-guard.ts'

/** mysql2 field type codes → column types (the established tool's map). */
const TYPES: Record<number, ColumnType> = {
  0: 'float', 4: 'float', 5: 'float', 246: 'float',
  1: 'integer', 2: 'integer', 3: 'integer', 8: 'integer', 9: 'integer', 13: 'integer', 16: 'integer',
  7: 'datetime', 12: 'datetime',
  10: 'date',
}

const NO_DATA = 'No data was returned.'
/** MariaDB's max_statement_time and MySQL's max_execution_time errors. */
const TIMEOUT_CODES = new Set([1969, 3024])

type Conn = mysql.Connection

function options(config: RunnerConfig, connectTimeout: number): mysql.ConnectionOptions {
  return {
    host: str(config, 'host', '127.0.0.1'),
    port: num(config, 'port', 3306),
    user: str(config, 'user') || undefined,
    password: config.passwd == null ? undefined : String(config.passwd),
    database: str(config, 'db') || undefined,
    ssl: bool(config, 'use_ssl') ? {} : undefined,
    connectTimeout,
    charset: 'utf8mb4',
    rowsAsArray: true,
    dateStrings: true,
    supportBigNumbers: true,
    decimalNumbers: true,
    multipleStatements: true,
  }
}

/** The driver is loaded on first use, so starting Sightline does not pay for engines nobody configured. */
let driver: Promise<typeof mysql> | undefined
const loadDriver = () => (driver ??= import('mysql2').then((m) => m.default))

async function open(config: RunnerConfig, connectTimeout: number): Promise<Conn> {
  const { createConnection } = await loadDriver()
  return new Promise((resolve, reject) => {
    const conn = createConnection(options(config, connectTimeout))
    conn.connect((err) => (err ? (conn.destroy(), reject(err)) : resolve(conn)))
    conn.on('error', () => {}) // fatal errors also reach the pending command; don't crash on late ones
  })
}

function query<T>(conn: Conn, sql: string): Promise<T> {
  return new Promise((resolve, reject) => conn.query(sql, (err, rows) => (err ? reject(err) : resolve(rows as T))))
}

function describe(config: RunnerConfig, e: unknown): Error {
  if (e instanceof RunnerError) return e
  const err = e as { code?: string; errno?: number; sqlMessage?: string; fatal?: boolean }
  const message = err.sqlMessage ?? errorMessage(e)
  // access denied, unknown database, network errors: nothing ran
  if (err.errno === 1045 || err.errno === 1044 || err.errno === 1049 || (err.fatal && !err.sqlMessage) || (err.code && !err.errno)) {
    const where = `${str(config, 'host', '127.0.0.1')}:${num(config, 'port', 3306)}`
    return new RunnerError(`Could not connect to MySQL at ${where}: ${message}`, 'connection')
  }
  return new RunnerError(message)
}

const isTimeout = (e: unknown) => TIMEOUT_CODES.has((e as { errno?: number })?.errno ?? 0)

/** Limits every statement of the session on the server: MariaDB counts seconds, MySQL milliseconds (SELECT only). */
async function limitTime(conn: Conn, timeoutMs: number) {
  const version = (conn as unknown as { _handshakePacket?: { serverVersion?: string } })._handshakePacket?.serverVersion ??
    (await query<[string][]>(conn, 'select version()'))[0][0]
  if (/mariadb/i.test(version)) await query(conn, `SET SESSION max_statement_time = ${Math.max(0.001, timeoutMs / 1000)}`)
  else await query(conn, `SET SESSION max_execution_time = ${Math.max(1, Math.round(timeoutMs))}`)
}

/** `KILL QUERY` from a second connection: the statement really stops, the session stays usable. */
async function killQuery(config: RunnerConfig, threadId: number | null) {
  if (threadId == null) return
  const killer = await open(config, CONNECT_TIMEOUT_MS)
  try {
    await query(killer, `KILL QUERY ${Number(threadId)}`)
  } finally {
    killer.destroy()
  }
}

function columnsOf(fields: mysql.FieldPacket[]) {
  return makeColumns(fields.map((f) => ({ name: f.name, type: TYPES[f.columnType ?? f.type ?? -1] ?? 'string' })))
}

/** Makes rows JSON-friendly in place: ISO timestamps, buffers as hex, BIT as a number. */
function fixer(fields: mysql.FieldPacket[]): (row: Cell[]) => Cell[] {
  const datetimes = fields.flatMap((f, i) => (f.columnType === 7 || f.columnType === 12 ? [i] : []))
  return (row) => {
    for (const i of datetimes) if (typeof row[i] === 'string') row[i] = (row[i] as string).replace(' ', 'T')
    for (let i = 0; i < row.length; i++) {
      const v = row[i] as unknown
      if (Buffer.isBuffer(v)) row[i] = fields[i].columnType === 16 ? Number(v.readUIntBE(0, Math.min(v.length, 6))) : '0x' + v.toString('hex')
    }
    return row
  }
}

export const mysqlRunner: Runner = {
  type: 'mysql',
  name: 'MySQL',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  configurationSchema: {
    type: 'object',
    properties: {
      host: { type: 'string', title: 'Host', default: '127.0.0.1' },
      port: { type: 'number', title: 'Port', default: 3306 },
      user: { type: 'string', title: 'User' },
      passwd: { type: 'string', title: 'Password' },
      db: { type: 'string', title: 'Database name' },
      use_ssl: { type: 'boolean', title: 'Use SSL', default: false },
    },
    order: ['host', 'port', 'user', 'passwd', 'db', 'use_ssl'],
    required: ['db'],
    secret: ['passwd'],
  },

  async test(config, signal) {
    const watch = new Watch(signal, 10_000)
    let conn: Conn | undefined
    try {
      conn = await raceStop(watch, open(config, TEST_CONNECT_TIMEOUT_MS))
      await raceStop(watch, query(conn, 'select 1'))
    } catch (e) {
      throw watch.translate(e, isTimeout, (e) => describe(config, e))
    } finally {
      watch.dispose()
      conn?.destroy()
    }
  },

  async schema(config, signal) {
    const watch = new Watch(signal, 60_000)
    let conn: Conn | undefined
    try {
      conn = await raceStop(watch, open(config, CONNECT_TIMEOUT_MS))
      const rows = await raceStop(watch, query<[string, string, string, string][]>(conn, `
        select table_schema, table_name, column_name, column_type
          from information_schema.columns
         where table_schema not in ('information_schema', 'performance_schema', 'mysql', 'sys')
         order by table_schema, table_name, ordinal_position`))
      const db = str(config, 'db')
      const tables = new Map<string, TableSchema>()
      for (const [schema, table, column, type] of rows) {
        const name = schema === db ? table : `${schema}.${table}`
        let t = tables.get(name)
        if (!t) tables.set(name, (t = { name, columns: [] }))
        t.columns.push({ name: column, type })
      }
      return [...tables.values()]
    } catch (e) {
      throw watch.translate(e, isTimeout, (e) => describe(config, e))
    } finally {
      watch.dispose()
      conn?.destroy()
    }
  },

  async run(config, text, { signal, timeoutMs, onStatement }) {
    const watch = new Watch(signal, timeoutMs)
    watch.check()
    const log: string[] = []
    let conn: Conn | undefined
    const fail = (e: unknown) => watch.translate(e, isTimeout, (e) => describe(config, e))
    // a statement that may write runs in a transaction committed once its answer is read (write-guard.ts)
    const writes = mayWrite(text)
    const inTransaction = writes && fitsTransaction(text, 'mysql')
    try {
      conn = await raceStop(watch, open(config, CONNECT_TIMEOUT_MS))
      const threadId = conn.threadId
      watch.onStop(() => killQuery(config, threadId))
      if (threadId != null) onStatement?.({ thread_id: threadId, ...(writes && { [WRITES]: 1 }), ...(inTransaction && { [IN_TRANSACTION]: 1 }) })
      if (timeoutMs > 0) await raceStop(watch, limitTime(conn, timeoutMs))
      if (inTransaction) await raceStop(watch, query(conn, 'start transaction'))
      const commit = inTransaction ? () => query(conn!, 'commit') : async () => {}
      if (splitStatements(text).length > 1) {
        // several statements: the answer is the last result set, known only at the end, so this is buffered
        const [results, fieldSets] = await raceStop(watch, new Promise<[unknown, unknown]>((resolve, reject) =>
          conn!.query({ sql: text, rowsAsArray: true }, (err, r, f) => (err ? reject(err) : resolve([r, f])))))
        watch.check() // KILL QUERY may end SLEEP() quietly
        await raceStop(watch, commit())
        // one entry per statement when there were several, else the single statement's own fields and rows
        const multi = Array.isArray(fieldSets) && fieldSets.some((f) => f === undefined || Array.isArray(f))
        const sets = (multi ? fieldSets : [fieldSets]) as (mysql.FieldPacket[] | undefined)[]
        const rowSets = (multi ? results : [results]) as unknown[]
        const i = sets.findLastIndex((f) => Array.isArray(f) && f.length > 0)
        if (i < 0) throw new RunnerError(NO_DATA)
        const fields = sets[i]!
        const rows = (rowSets[i] as Cell[][]).map(fixer(fields))
        watch.dispose()
        conn.destroy()
        return { columns: columnsOf(fields), log, batches: chunks(rows) }
      }
      return await stream(conn, text, watch, log, fail, () => killQuery(config, threadId), commit)
    } catch (e) {
      watch.dispose()
      conn?.destroy()
      throw fail(e)
    }
  },

  cancelOrphan: async (config, handle) => endOrphanConnection(await open(config, CONNECT_TIMEOUT_MS), handle),
}

/**
 * Streams one statement's rows: the driver pushes rows, the consumer pulls batches; the socket is paused while two
 * batches wait, so memory stays bounded whatever the result size.
 */
function stream(
  conn: Conn, text: string, watch: Watch, log: string[], fail: (e: unknown) => Error, kill: () => Promise<void>, commit: () => Promise<unknown>,
) {
  return new Promise<Awaited<ReturnType<Runner['run']>>>((resolve, reject) => {
    let answered = false
    const ready: Cell[][][] = []
    let batch: Cell[][] = []
    let batchSize = 0 // roughly, in characters: wide rows are handed over before BATCH_SIZE of them pile up
    let ended = false
    let error: unknown
    let wake: (() => void) | undefined
    let paused = false
    let fix: (row: Cell[]) => Cell[] = (r) => r
    const notify = () => (wake?.(), (wake = undefined))
    const q = conn.query({ sql: text, rowsAsArray: true })
    q.on('fields', (fields: mysql.FieldPacket[] | undefined) => {
      if (!fields) return // a statement without a result set (DDL, SET…)
      fix = fixer(fields)
      if (watch.reason) return reject(watch.error()) // KILL QUERY ends SLEEP() without an error
      answered = true
      resolve({ columns: columnsOf(fields), log, batches: batches() })
    })
    q.on('result', (row: unknown) => {
      if (!Array.isArray(row)) return // an OK packet: the statement returned no rows
      batch.push(fix(row as Cell[]))
      batchSize += roughSize(row as Cell[])
      if (batch.length >= BATCH_SIZE || batchSize >= BATCH_BYTES) {
        ready.push(batch)
        batch = []
        batchSize = 0
        if (ready.length >= 2 && !paused) ((paused = true), conn.pause())
        notify()
      }
    })
    q.on('error', (e: unknown) => {
      error = e
      reject(fail(e))
      notify()
    })
    q.on('end', () => {
      ended = true
      if (batch.length) ready.push(batch)
      batch = []
      // a statement without rows has still run: its changes are kept
      if (!answered && !error) {
        if (watch.reason) reject(watch.error())
        else commit().then(() => reject(new RunnerError(NO_DATA)), (e) => reject(fail(e)))
      }
      notify()
    })
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        while (true) {
          watch.check()
          if (ready.length) {
            const next = ready.shift()!
            if (paused && ready.length < 2) ((paused = false), conn.resume())
            yield next
          } else if (error) throw fail(error)
          else if (ended) {
            watch.check()
            return void await raceStop(watch, commit())
          }
          else await raceStop(watch, new Promise<void>((r) => (wake = r)))
        }
      } finally {
        if (!ended && !error) await kill().catch(() => {}) // the consumer stopped early: stop the server's work too
        watch.dispose()
        closeAtOnce(conn)
      }
    }
  })
}

/**
 * Ends a connection whose socket may be paused mid-result. mysql2's `destroy()` only half-closes the socket, so a
 * server thread blocked writing rows to it would stay "Killed / Writing to net" until its network write timeout;
 * destroying the socket itself resets the connection and frees that thread at once.
 */
function closeAtOnce(conn: Conn): void {
  conn.destroy()
  ;(conn as unknown as { stream?: { destroy(): void } }).stream?.destroy()
}

/** A row's size for batching: its strings' lengths, a few bytes for anything else. */
function roughSize(row: Cell[]): number {
  let size = 0
  for (const cell of row) size += typeof cell === 'string' ? cell.length : 8
  return size
}

async function* chunks(rows: Cell[][]): AsyncGenerator<Cell[][]> {
  for (let i = 0; i < rows.length; i += BATCH_SIZE) yield rows.slice(i, i + BATCH_SIZE)
}
