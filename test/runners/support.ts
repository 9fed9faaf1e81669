import { expect } from 'vitest'
import { batchCells, RunnerError, type Cell, type RunStream } from '../../src/runners/runner.ts'

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

export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 1_000, stepMs = 25): Promise<number> {
  const started = performance.now()
  while (performance.now() - started < timeoutMs) {
    if (await check()) return performance.now() - started
    await new Promise((r) => setTimeout(r, stepMs))
  }
  throw new Error(`condition not met within ${timeoutMs} ms`)
}

/** An address that drops packets (TEST-NET-1): connecting neither succeeds nor is refused. */
export const BLACKHOLE = '192.0.2.1'

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

/** Read a stream slowly, abort it after 100 ms, and expect the run to end as cancelled. */
export async function cancelWhileStreaming(stream: RunStream, controller: AbortController) {
  const consume = (async () => {
    for await (const _ of stream.batches) await sleep(20)
  })()
  await sleep(100)
  controller.abort()
  await expectRunnerError(consume, 'cancelled')
}

/** A run's batches as values, whichever form the runner wrote them in. */
export async function* cellBatches(stream: RunStream): AsyncGenerator<Cell[][]> {
  for await (const batch of stream.batches) yield batchCells(batch)
}
