import { expect } from 'vitest'
import { batchCells, RunnerError, type Cell, type RunStream } from '../../src/runners/index.ts'
import { WAIT_MS } from '../helpers/wait.ts'

export { WAIT_MS }

/** Every row of a run, and how many batches carried them. */
export async function collect(stream: RunStream): Promise<{ rows: Cell[][]; batches: number }> {
  const rows: Cell[][] = []
  let batches = 0
  for await (const batch of stream.batches) {
    batches++
    for (const row of batchCells(batch)) rows.push(row)
  }
  return { rows, batches }
}

/** A PostgreSQL source's configuration for a database address (a test database's). */
export function postgresConfig(url: string): Record<string, unknown> {
  const u = new URL(url)
  return {
    host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password), dbname: u.pathname.slice(1), sslmode: 'disable',
  }
}

/** Options for a run that is never aborted. */
export const opts = (timeoutMs = 30_000) => ({ signal: new AbortController().signal, timeoutMs })

/** Expects `promise` to reject with a RunnerError of `kind` whose message matches; returns the time it took. */
export async function expectRunnerError(promise: Promise<unknown>, kind: RunnerError['kind'], message?: RegExp | string) {
  const started = performance.now()
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  const ms = performance.now() - started
  expect(error, 'expected a RunnerError').toBeInstanceOf(RunnerError)
  const e = error as RunnerError
  if (message) expect(e.message).toMatch(message)
  expect(e.kind, e.message).toBe(kind)
  return ms
}

/**
 * Checks until `check` holds, for up to `timeoutMs` (generous: the engine answers on its own clock, slower on a busy
 * machine); returns how long it took.
 */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = WAIT_MS, stepMs = 25): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (await check()) return performance.now() - started
    await new Promise((r) => setTimeout(r, stepMs))
  }
  throw new Error(`condition not met within ${timeoutMs} ms`)
}

/**
 * A 127.0.0.1 port where a TCP connect neither succeeds nor is refused, like a host that drops packets, without
 * sending anything off the machine. Linux drops a SYN while the listening socket's accept queue holds more than its
 * backlog: a child process listens with backlog 1 and never accepts (its event loop stays blocked, so libuv never
 * calls accept), and two connections of ours fill the queue before the port is handed out. The queue length is read
 * back from /proc/net/tcp, so a port that would answer is an error here rather than a test that proves nothing. The
 * child exits when closed, or by itself once its parent is gone. Linux only.
 */
export async function unansweredPort(): Promise<{ port: number; close(): Promise<void> }> {
  const net = await import('node:net')
  const { spawn } = await import('node:child_process')
  const child = spawn(process.execPath, ['-e', `
    const server = require('node:net').createServer()
    server.listen({ host: '127.0.0.1', port: 0, backlog: 1 }, () => {
      process.stdout.write(server.address().port + '\\n')
      const parent = process.ppid, nap = new Int32Array(new SharedArrayBuffer(4))
      while (process.ppid === parent) Atomics.wait(nap, 0, 0, 1000)
      process.exit(0)
    })`], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const fillers: import('node:net').Socket[] = []
  const close = async () => {
    for (const s of fillers) s.destroy()
    if (child.exitCode === null && child.signalCode === null) child.kill()
    await exited
  }
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d) => resolve(Number(String(d).trim())))
      child.once('error', reject)
      child.once('exit', (code) => reject(new Error(`the unanswered-port process exited (${code})`)))
    })
    for (let i = 0; i < 2; i++) {
      const filler = net.connect(port, '127.0.0.1').on('error', () => {})
      fillers.push(filler)
      await new Promise((resolve, reject) => filler.once('connect', resolve).once('error', reject))
    }
    await waitUntil(async () => (await acceptQueueLength(port)) >= 2, 10_000).catch(() => {
      throw new Error(`the accept queue of 127.0.0.1:${port} did not fill: connects to it would not hang`)
    })
    return { port, close }
  } catch (e) {
    await close()
    throw e
  }
}

/** How many connections wait in the accept queue of the listener on 127.0.0.1:`port` (Linux's /proc/net/tcp). */
async function acceptQueueLength(port: number): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`
  for (const line of (await readFile('/proc/net/tcp', 'utf8')).split('\n')) {
    const [, address, , state, queues] = line.trim().split(/\s+/)
    if (address === local && state === '0A') return parseInt(queues.split(':')[1], 16) // LISTEN: rx_queue = queued
  }
  return 0
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * A TCP server that accepts connections and never says a word: a reachable host whose service hangs, the case
 * where only the runner's own connect timeout can answer quickly. Returns its port and a close function.
 */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const net = await import('node:net')
  const sockets = new Set<import('node:net').Socket>()
  const server = net.createServer((s) => {
    sockets.add(s)
    s.on('error', () => {})
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as import('node:net').AddressInfo).port,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy()
      server.close(() => r())
    }),
  }
}

/** Read a stream, abort it once its first batch has arrived, and expect the run to end as cancelled. */
export async function cancelWhileStreaming(stream: RunStream, controller: AbortController) {
  const consume = (async () => {
    for await (const _ of stream.batches) controller.abort()
  })()
  await expectRunnerError(consume, 'cancelled')
}

/** A run's batches as values, whichever form the runner wrote them in. */
export async function* cellBatches(stream: RunStream): AsyncGenerator<Cell[][]> {
  for await (const batch of stream.batches) yield batchCells(batch)
}
