import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { BATCH_SIZE, Watch, errorMessage, str } from './common.ts'
import { inferTypes, makeColumns } from './column-types.ts'
import { RunnerError, type Cell, type Runner, type RunnerConfig, type TableSchema } from './runner.ts'
import { SQLITE_GUARD, declaredType } from './sqlite-guard.ts'
import { splitStatements } from './statements.ts'

/*
 * Why a worker thread: better-sqlite3 (like node:sqlite) is synchronous and exposes no sqlite3_interrupt or progress
 * handler, so a statement cannot be stopped from the thread that runs it. Each run therefore happens in its own
 * worker thread, and cancelling or timing out terminates that thread: rows stop at once, and a statement busy
 * inside a single step (a big aggregate) is abandoned and ends with the thread when that step returns. The main
 * thread never blocks on SQLite. Writes are allowed, like the established tool.
 */
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3')

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads')
const Database = require(workerData.driver)
const { job, dbpath, statements, batchSize, credits } = workerData
const send = (m) => parentPort.postMessage(m)
const norm = (v) => typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v))
  : Buffer.isBuffer(v) ? '0x' + v.toString('hex') : v
${SQLITE_GUARD}
let db
try {
  db = new Database(dbpath, { fileMustExist: dbpath !== ':memory:', timeout: 1000 })
  if (job === 'schema') {
    const tables = db.prepare("select name from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%' order by name").pluck().all()
    send({ type: 'schema', tables: tables.map((name) => ({ name,
      columns: db.prepare('select name, type from pragma_table_info(?)').all(name).map((c) => ({ name: c.name, type: c.type || undefined })) })) })
  } else {
    let last
    for (const [i, text] of statements.entries()) {
      const stmt = prepareGuarded(text)
      if (i < statements.length - 1) { stmt.reader ? stmt.all() : stmt.run(); continue }
      last = stmt
    }
    if (!last.reader) { last.run(); send({ type: 'columns', columns: null }) }
    else {
      send({ type: 'columns', columns: last.columns().map((c) => ({ name: c.name, declared: c.type })) })
      last.raw(true).safeIntegers(true)
      let batch = []
      const flush = () => {
        // wait for the consumer: at most a few batches in flight
        while (Atomics.load(credits, 0) <= 0) Atomics.wait(credits, 0, Atomics.load(credits, 0), 1000)
        Atomics.sub(credits, 0, 1)
        send({ type: 'batch', rows: batch })
        batch = []
      }
      for (const row of last.iterate()) {
        for (let i = 0; i < row.length; i++) row[i] = norm(row[i])
        batch.push(row)
        if (batch.length >= batchSize) flush()
      }
      if (batch.length) flush()
    }
  }
  send({ type: 'done' })
} catch (e) {
  send({ type: 'error', message: e && e.message ? e.message : String(e), code: e && e.code })
}
`

type Message =
  | { type: 'columns'; columns: { name: string; declared: string | null }[] | null }
  | { type: 'batch'; rows: Cell[][] }
  | { type: 'schema'; tables: TableSchema[] }
  | { type: 'done' }
  | { type: 'error'; message: string; code?: string }

const IN_FLIGHT = 2

/** One job in a fresh worker thread, as a pull-based stream of its messages; `stop()` terminates it. */
function start(job: 'run' | 'schema', config: RunnerConfig, statements: string[] = []) {
  const credits = new Int32Array(new SharedArrayBuffer(4))
  credits[0] = IN_FLIGHT
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { job, driver: DRIVER, dbpath: str(config, 'dbpath', ':memory:'), statements, batchSize: BATCH_SIZE, credits },
  })
  worker.unref()
  const queue: (Message | { type: 'exit'; error?: Error })[] = []
  let wake: (() => void) | undefined
  const push = (m: (typeof queue)[number]) => (queue.push(m), wake?.(), (wake = undefined))
  worker.on('message', (m: Message) => push(m))
  worker.on('error', (e) => push({ type: 'exit', error: e }))
  worker.on('exit', () => push({ type: 'exit' }))
  let stopped: (() => void) | undefined
  const stoppedPromise = new Promise<void>((r) => (stopped = r))
  return {
    /** The next message, or the exit; rejects early when stop() is called. */
    async next(): Promise<(typeof queue)[number] | { type: 'stopped' }> {
      while (!queue.length) {
        const stop = await Promise.race([new Promise<false>((r) => (wake = () => r(false))), stoppedPromise.then(() => true)])
        if (stop) return { type: 'stopped' }
      }
      return queue.shift()!
    },
    /** The consumer took a batch: the worker may send another. */
    credit() {
      Atomics.add(credits, 0, 1)
      Atomics.notify(credits, 0)
    },
    stop() {
      stopped?.()
      void worker.terminate()
    },
  }
}

function engineError(config: RunnerConfig, m: { message: string; code?: string }): RunnerError {
  if (m.code === 'SQLITE_CANTOPEN' || m.code === 'SQLITE_NOTADB' || /unable to open|not a database|directory does not exist/.test(m.message)) {
    return new RunnerError(`Could not open the SQLite database ${str(config, 'dbpath', ':memory:')}: ${m.message}`, 'connection')
  }
  return new RunnerError(m.message)
}

export const sqliteRunner: Runner = {
  type: 'sqlite',
  name: 'SQLite',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  configurationSchema: {
    type: 'object',
    properties: { dbpath: { type: 'string', title: 'Database Path' } },
    required: ['dbpath'],
  },

  async test(config, signal) {
    const stream = await sqliteRunner.run(config, 'select count(*) from sqlite_master', { signal, timeoutMs: 10_000 })
    for await (const _ of stream.batches) {
      // drained
    }
  },

  async schema(config, signal) {
    const job = start('schema', config)
    const watch = new Watch(signal, 60_000, 60_000)
    watch.onStop(() => job.stop())
    try {
      const m = await job.next()
      if (m.type === 'schema') return m.tables
      if (m.type === 'error') throw engineError(config, m)
      throw watch.reason ? watch.error() : new RunnerError(`SQLite worker ended unexpectedly: ${m.type === 'exit' ? errorMessage(m.error) : m.type}`)
    } finally {
      watch.dispose()
      job.stop()
    }
  },

  async run(config, text, { signal, timeoutMs }) {
    // No engine-side limit exists: the time limit terminates the worker (the backstop is the limit itself).
    const watch = new Watch(signal, timeoutMs, timeoutMs)
    watch.check()
    const statements = splitStatements(text).map((s) => s.text)
    if (!statements.length) throw new RunnerError('Query is empty.')
    const job = start('run', config, statements)
    watch.onStop(() => job.stop())
    const next = async () => {
      const m = await job.next()
      if (m.type === 'stopped' || watch.reason) throw watch.error()
      if (m.type === 'error') throw engineError(config, m)
      if (m.type === 'exit') throw new RunnerError(`SQLite worker ended unexpectedly: ${errorMessage(m.error ?? 'exit')}`)
      return m
    }
    try {
      const head = await next()
      if (head.type !== 'columns') throw new RunnerError(`SQLite worker: unexpected ${head.type}`)
      if (!head.columns) throw new RunnerError('Query completed but it returned no data.')
      // undeclared types (expressions) are inferred from the first batch
      const first = await next()
      const sample = first.type === 'batch' ? first.rows : []
      const inferred = inferTypes(sample, head.columns.length)
      const columns = makeColumns(head.columns.map((c, i) => ({ name: c.name, type: declaredType(c.declared) ?? inferred[i] })))
      async function* batches(): AsyncGenerator<Cell[][]> {
        try {
          let m = first
          while (m.type === 'batch') {
            job.credit()
            yield m.rows
            watch.check()
            m = await next()
          }
        } finally {
          watch.dispose()
          job.stop()
        }
      }
      return { columns, log: [], batches: batches() }
    } catch (e) {
      watch.dispose()
      job.stop()
      throw e
    }
  },
}
