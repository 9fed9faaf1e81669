import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { BATCH_SIZE, errorMessage } from './common.ts'
import { SQLITE_GUARD, declaredType } from './sqlite-guard.ts'
import { RunnerError, type Cell, type ColumnType, type RowBatch } from './runner.ts'
import type { ResultsEngine, TableColumn } from './results-engine.ts'

/*
 * The Query Results source on SQLite, the established tool's engine (imported text keeps its functions and typeless
 * columns). Like the SQLite runner, it works in a thread of its own that a cancel or the time limit terminates, since
 * better-sqlite3 cannot be interrupted. Its database is a fresh file in the temporary directory, so a large result
 * spills to disk instead of filling memory; joins get SQLite's automatic indexes where its planner wants them.
 */
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3')

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads')
const Database = require(workerData.driver)
const { dbpath, batchSize, credits } = workerData
const send = (m) => parentPort.postMessage(m)
const norm = (v) => typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v))
  : Buffer.isBuffer(v) ? '0x' + v.toString('hex') : v
const bind = (v) => v === true ? 1 : v === false ? 0 : v !== null && typeof v === 'object' ? JSON.stringify(v) : v
const quote = (name) => '"' + name.replaceAll('"', '""') + '"'
const decoder = new TextDecoder()
const MANY_ROWS = 250
const MAX_PARAMETERS = 32766
function rowsOf(m) {
  if (m.rows) return m.rows
  const text = decoder.decode(m.json)
  return JSON.parse(m.array ? text : '[' + text + ']')
}
${SQLITE_GUARD}
const db = new Database(dbpath)
// a scratch database: nothing to recover after a crash, so no journal and no waiting for the disk
db.pragma('journal_mode = OFF')
db.pragma('synchronous = OFF')
db.pragma('cache_size = -32768')
db.pragma('temp_store = FILE')
const inserts = new Map()
function run(statements) {
  let last
  for (const [i, text] of statements.entries()) {
    const stmt = prepareGuarded(text)
    if (i < statements.length - 1) { stmt.reader ? stmt.all() : stmt.run(); continue }
    last = stmt
  }
  if (!last.reader) { last.run(); send({ type: 'columns', columns: null }); return }
  const columns = last.columns().map((c) => ({ name: c.name, declared: c.type }))
  send({ type: 'columns', columns })
  const booleans = columns.flatMap((c, i) => (/BOOL/i.test(c.declared || '') ? [i] : []))
  last.raw(true).safeIntegers(true)
  let batch = []
  const flush = () => {
    while (Atomics.load(credits, 0) <= 0) Atomics.wait(credits, 0, Atomics.load(credits, 0), 1000)
    Atomics.sub(credits, 0, 1)
    send({ type: 'batch', rows: batch })
    batch = []
  }
  for (const row of last.iterate()) {
    for (let i = 0; i < row.length; i++) row[i] = norm(row[i])
    for (const i of booleans) if (row[i] === 0 || row[i] === 1) row[i] = row[i] === 1
    batch.push(row)
    if (batch.length >= batchSize) flush()
  }
  if (batch.length) flush()
  send({ type: 'done' })
}
parentPort.on('message', (m) => {
  try {
    if (m.type === 'table') {
      db.exec('create table ' + quote(m.table) + ' (' + m.columns.map((c) => quote(c.name) + ' ' + c.declared).join(', ') + ')')
      const width = m.columns.length
      const row = '(' + m.columns.map(() => '?').join(', ') + ')'
      const insert = db.prepare('insert into ' + quote(m.table) + ' values ' + row)
      // many rows a statement: each run() crosses into SQLite once, so fewer, larger ones load several times faster
      const many = Math.max(1, Math.min(MANY_ROWS, Math.floor(MAX_PARAMETERS / width)))
      const insertMany = many > 1 ? db.prepare('insert into ' + quote(m.table) + ' values ' + new Array(many).fill(row).join(', ')) : insert
      const one = new Array(width)
      const values = new Array(width * many)
      inserts.set(m.table, db.transaction((rows) => {
        let r = 0
        for (; r + many <= rows.length; r += many) {
          for (let k = 0, at = 0; k < many; k++) {
            const cells = rows[r + k]
            for (let i = 0; i < width; i++) values[at++] = bind(cells[i] === undefined ? null : cells[i])
          }
          insertMany.run(values)
        }
        for (; r < rows.length; r++) {
          const cells = rows[r]
          for (let i = 0; i < width; i++) one[i] = bind(cells[i] === undefined ? null : cells[i])
          insert.run(one)
        }
      }))
      send({ type: 'ok' })
    } else if (m.type === 'rows') {
      inserts.get(m.table)(rowsOf(m))
      send({ type: 'ok' })
    } else if (m.type === 'run') {
      run(m.statements)
    }
  } catch (e) {
    send({ type: 'error', message: e && e.message ? e.message : String(e), code: e && e.code })
  }
})
send({ type: 'ok' })
`

/** The declared type a column of a stored result gets, so `select *` reads its type back (sqlite-guard.ts). */
const DECLARED: Record<ColumnType, string> = {
  integer: 'INTEGER', float: 'REAL', boolean: 'BOOLEAN', date: 'DATE', datetime: 'DATETIME', string: 'TEXT',
}

type Message =
  | { type: 'ok' }
  | { type: 'columns'; columns: { name: string; declared: string | null }[] | null }
  | { type: 'batch'; rows: Cell[][] }
  | { type: 'done' }
  | { type: 'error'; message: string; code?: string }
  | { type: 'exit'; error?: Error }

const IN_FLIGHT = 2

/** A scratch SQLite database in a thread of its own, loaded with the referenced rows, then asked the user's query. */
export function sqliteEngine(): ResultsEngine {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-results-'))
  const credits = new Int32Array(new SharedArrayBuffer(4))
  credits[0] = IN_FLIGHT
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { driver: DRIVER, dbpath: path.join(dir, 'results.sqlite'), batchSize: BATCH_SIZE, credits },
  })
  worker.unref()
  const queue: Message[] = []
  let wake: (() => void) | undefined
  let ended = false
  const push = (m: Message) => (queue.push(m), wake?.(), (wake = undefined))
  worker.on('message', (m: Message) => push(m))
  worker.on('error', (e) => push({ type: 'exit', error: e }))
  worker.on('exit', () => {
    push({ type: 'exit' })
    fs.rmSync(dir, { recursive: true, force: true })
  })
  async function next(): Promise<Message> {
    while (!queue.length) {
      if (ended) return { type: 'exit' }
      await new Promise<void>((r) => (wake = r))
    }
    return queue.shift()!
  }
  const fail = (m: Message): never => {
    if (m.type === 'error') throw new RunnerError(m.message)
    throw new RunnerError(`Query Results worker ended unexpectedly: ${m.type === 'exit' ? errorMessage(m.error ?? 'exit') : m.type}`)
  }
  async function ok(): Promise<void> {
    const m = await next()
    if (m.type !== 'ok') fail(m)
  }
  const ready = ok()
  ready.catch(() => {}) // a run refused before it loads anything never waits for the thread
  // Loads answered later: the thread inserts one chunk while the next is read, and at most one more waits for it.
  let unanswered = 0
  async function answered(atMost: number) {
    for (; unanswered > atMost; unanswered--) await ok()
  }
  return {
    async createTable(table: string, columns: TableColumn[]) {
      await ready
      await answered(0)
      worker.postMessage({ type: 'table', table, columns: columns.map((c) => ({ name: c.name, declared: c.type ? DECLARED[c.type] : '' })) })
      await ok()
    },
    async load(table: string, batch: RowBatch | Uint8Array) {
      if (batch instanceof Uint8Array) worker.postMessage({ type: 'rows', table, json: batch, array: true })
      else if (Array.isArray(batch)) worker.postMessage({ type: 'rows', table, rows: batch })
      else worker.postMessage({ type: 'rows', table, json: batch.json })
      unanswered++
      await answered(1)
    },
    async run(statements: string[]) {
      await ready
      await answered(0)
      worker.postMessage({ type: 'run', statements })
      const head = await next()
      if (head.type !== 'columns') return fail(head)
      if (!head.columns) throw new RunnerError('Query completed but it returned no data.')
      const columns = head.columns.map((c) => ({ name: c.name, type: declaredType(c.declared) }))
      async function* batches(): AsyncGenerator<Cell[][]> {
        for (;;) {
          const m = await next()
          if (m.type === 'done') return
          if (m.type !== 'batch') fail(m)
          else {
            Atomics.add(credits, 0, 1)
            Atomics.notify(credits, 0)
            yield m.rows
          }
        }
      }
      return { columns, batches: batches() }
    },
    close() {
      ended = true
      wake?.()
      void worker.terminate()
    },
  }
}
