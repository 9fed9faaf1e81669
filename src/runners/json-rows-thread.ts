import { EventEmitter } from 'node:events'
import { createRequire } from 'node:module'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import type { Watch } from './common.ts'
import { RunnerError, type Cell } from './runner.ts'

/*
 * Why a worker thread: JSON.parse cannot be split, and a 90 MB answer (under the 100 MB result limit) took the one
 * event loop that serves every request 1.3–2.5 s to parse, plus as long again to become rows. An answer larger than
 * THREAD_ABOVE_BYTES is therefore decoded, parsed and flattened in a thread of its own (json-rows.cjs, the same code
 * the main thread runs for small answers, where a thread's ~30 ms start would cost more than it saves). Its rows come
 * back one slice per turn of the event loop, when asked for, and a cancel or the time limit terminates the thread.
 */
const require = createRequire(import.meta.url)
const ROWS_MODULE = require.resolve('./json-rows.cjs')

interface PageSpec {
  /** The answer's URL, quoted in errors. */
  url: string
  path?: string
  fields?: string[]
  /** Where the next page's URL or token is, when the query paginates. */
  nextPath?: string
}
interface Page { names: string[]; index: Map<string, number>; rows: Cell[][] }
interface RowsModule {
  Refused: new (message: string) => Error
  readPage(bytes: Uint8Array, spec: PageSpec): { items: unknown[]; next: string | null }
  newPage(fields: string[] | undefined): Page
  flattenItems(items: unknown[], from: number, to: number, page: Page): void
  paddedRows(page: Page, from: number, to: number): Cell[][]
}
const rows = require(ROWS_MODULE) as RowsModule

/** Answers larger than this are parsed in a worker thread. */
export const THREAD_ABOVE_BYTES = 1024 * 1024
/** Items flattened between two turns of the event loop on the main thread. */
const ITEMS_PER_TURN = 10_000
/** About how many cells one slice from the thread carries (its rows are copied into the main thread in one go). */
const CELLS_PER_SLICE = 40_000

/** One page's rows: column names in order of first appearance, each row as wide as `names`. */
export interface PageRows {
  names: string[]
  /** The next page's URL or token; null on the last page. */
  next: string | null
  slices: AsyncGenerator<Cell[][]>
}

let liveThreads = 0
/** Worker threads reading an answer right now. */
export const liveParseThreads = (): number => liveThreads
/** Says `start` when a thread is created and `exit` (with its exit code) when it is gone; the tests watch it. */
export const parseThreadEvents = new EventEmitter<{ start: []; exit: [code: number] }>()

/**
 * Turns one answer's body into rows. The body's chunks are kept until they pass THREAD_ABOVE_BYTES; from there they go
 * to a worker thread as they arrive, so the main thread never even joins them into one buffer.
 */
export class PageReader {
  private chunks: Buffer[] = []
  private size = 0
  private thread: Thread | null = null

  constructor(private readonly spec: PageSpec, private readonly watch: Watch) {}

  add(chunk: Buffer): void {
    if (this.thread) return this.thread.send(chunk)
    this.chunks.push(chunk)
    this.size += chunk.length
    if (this.size <= THREAD_ABOVE_BYTES) return
    this.thread = new Thread(this.spec, this.watch)
    for (const c of this.chunks) this.thread.send(c)
    this.chunks = []
  }

  /** The page's rows, once the whole body has been added. */
  finish(): Promise<PageRows> {
    return this.thread ? this.thread.rows() : inline(Buffer.concat(this.chunks, this.size), this.spec, this.watch)
  }

  /** Lets go of a body that will not be finished (it broke off, or was too large). */
  discard(): void {
    this.thread?.stop()
  }
}

async function inline(bytes: Uint8Array, spec: PageSpec, watch: Watch): Promise<PageRows> {
  let read: ReturnType<RowsModule['readPage']>
  try {
    read = rows.readPage(bytes, spec)
  } catch (e) {
    throw e instanceof rows.Refused ? new RunnerError(e.message) : e
  }
  const page = rows.newPage(spec.fields)
  for (let from = 0; from < read.items.length; from += ITEMS_PER_TURN) {
    if (from > 0) {
      await nextTurn()
      watch.check()
    }
    rows.flattenItems(read.items, from, Math.min(from + ITEMS_PER_TURN, read.items.length), page)
  }
  return {
    names: page.names, next: read.next,
    slices: (async function* () {
      if (page.rows.length) yield rows.paddedRows(page, 0, page.rows.length)
    })(),
  }
}

type Message =
  | { type: 'page'; names: string[]; next: string | null; count: number }
  | { type: 'rows'; rows: Cell[][] }
  | { type: 'refused'; message: string }
  | { type: 'error'; message: string }
  | { type: 'exit'; error?: Error }
  | { type: 'stopped' }

const THREAD = `
const { workerData, parentPort } = require('node:worker_threads')
require(workerData.module).serveThread(workerData, parentPort)
`

/** One page read in a worker thread; `stop()` (also on the run's cancel or time limit) terminates it. */
class Thread {
  private readonly worker: Worker
  private readonly queue: Message[] = []
  private wake: (() => void) | undefined
  private stopped = false

  constructor(private readonly spec: PageSpec, private readonly watch: Watch) {
    this.worker = new Worker(THREAD, { eval: true, workerData: { module: ROWS_MODULE, spec, cellsPerSlice: CELLS_PER_SLICE } })
    liveThreads++
    parseThreadEvents.emit('start')
    this.worker.on('message', (m: Message) => this.push(m))
    this.worker.on('error', (error) => this.push({ type: 'exit', error }))
    this.worker.on('exit', (code) => {
      liveThreads--
      this.push({ type: 'exit' })
      parseThreadEvents.emit('exit', code)
    })
    watch.onStop(() => this.stop())
  }

  /** A chunk of the body, copied into a buffer of its own that then moves to the thread without a second copy. */
  send(chunk: Buffer): void {
    if (this.stopped) return
    const own = new Uint8Array(chunk)
    this.worker.postMessage(own, [own.buffer])
  }

  stop(): void {
    this.stopped = true
    this.wake?.()
    void this.worker.terminate()
  }

  async rows(): Promise<PageRows> {
    const fail = (why: string) => new RunnerError(`Could not read the answer from '${this.spec.url}': ${why}`)
    try {
      this.worker.postMessage('end')
      const head = await this.next()
      if (head.type !== 'page') throw fail(`unexpected ${head.type}`)
      const thread = this
      return {
        names: head.names, next: head.next,
        slices: (async function* () {
          try {
            for (let received = 0; received < head.count;) {
              thread.worker.postMessage('more')
              const m = await thread.next()
              if (m.type !== 'rows') throw fail(`unexpected ${m.type}`)
              received += m.rows.length
              yield m.rows
              // The next slice waits for the event loop's next turn: every other request gets its turn in between.
              await nextTurn()
              thread.watch.check()
            }
          } finally {
            thread.stop()
          }
        })(),
      }
    } catch (e) {
      this.stop()
      throw e
    }
  }

  private push(m: Message) {
    this.queue.push(m)
    this.wake?.()
  }

  /** The thread's next message; throws the run's error once stopped, and the thread's own when it failed. */
  private async next(): Promise<Extract<Message, { type: 'page' | 'rows' }>> {
    while (!this.queue.length && !this.stopped) await new Promise<void>((r) => (this.wake = r))
    const m: Message = this.stopped ? { type: 'stopped' } : this.queue.shift()!
    if (m.type === 'stopped' || this.watch.reason) throw this.watch.error()
    if (m.type === 'refused') throw new RunnerError(m.message)
    if (m.type === 'error') throw new RunnerError(`Could not read the answer from '${this.spec.url}': ${m.message}`)
    if (m.type === 'exit') throw new RunnerError(`Could not read the answer from '${this.spec.url}': ${m.error?.message ?? 'the reading thread ended'}`)
    return m
  }
}
