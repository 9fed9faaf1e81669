import { RunnerError } from './runner.ts'

/** How long test() waits for a TCP/TLS connection: an unreachable host must answer about this fast. */
export const TEST_CONNECT_TIMEOUT_MS = 1_000
/** How long run() and schema() wait for a connection. */
export const CONNECT_TIMEOUT_MS = 10_000
/** Rows per batch when streaming. */
export const BATCH_SIZE = 5_000
/** Bytes after which a batch is handed over short of BATCH_SIZE rows, so wide rows never pile up in memory. */
export const BATCH_BYTES = 4 * 1024 * 1024
/**
 * The client-side backstop: when the engine has not ended the statement this long after the time limit (or after an
 * abort), the runner gives up on it and reports the timeout / cancellation anyway.
 */
export const GRACE_MS = 2_000

export const cancelledError = () => new RunnerError('Query cancelled by user.', 'cancelled')

export function timeoutError(timeoutMs: number, detail?: string): RunnerError {
  const limit = timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`
  return new RunnerError(`Query exceeded the time limit of ${limit} and was stopped${detail ? ` (${detail})` : ''}.`, 'timeout')
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name
  return String(e)
}

/**
 * Watches a run's AbortSignal and time limit. When either fires it calls `stop` once (the engine's own cancel),
 * and remembers why, so the runner can report "cancelled" or "timeout" instead of the engine's wording.
 * The time limit here is a backstop `GRACE_MS` after the engine's own limit, which normally fires first.
 */
export class Watch {
  reason: 'cancelled' | 'timeout' | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private onAbort = () => this.fire('cancelled')
  private stops: ((reason: 'cancelled' | 'timeout') => unknown)[] = []
  /** Waits in progress (see raceStop), given up on `GRACE_MS` after a stop. */
  readonly pending = new Set<() => void>()

  constructor(private signal: AbortSignal, readonly timeoutMs: number, backstopMs = timeoutMs + GRACE_MS) {
    if (signal.aborted) this.reason = 'cancelled'
    else signal.addEventListener('abort', this.onAbort, { once: true })
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      this.timer = setTimeout(() => this.fire('timeout'), backstopMs)
      this.timer.unref?.()
    }
  }

  /** Registers the engine's cancel; runs it at once if the run was already stopped. */
  onStop(stop: (reason: 'cancelled' | 'timeout') => unknown): void {
    this.stops.push(stop)
    if (this.reason) this.call(stop, this.reason)
  }

  /** Throws the cancellation/timeout error if the run has been stopped. */
  check(): void {
    if (this.reason) throw this.error()
  }

  error(detail?: string): RunnerError {
    return this.reason === 'timeout' ? timeoutError(this.timeoutMs, detail) : cancelledError()
  }

  /**
   * The error to report for something the engine threw: ours when we stopped the run, the engine's timeout when
   * `isTimeout` recognises it, else `otherwise(e)`.
   */
  translate(e: unknown, isTimeout: (e: unknown) => boolean, otherwise: (e: unknown) => Error): Error {
    if (e instanceof RunnerError) return e
    if (this.reason) return this.error()
    if (isTimeout(e)) return timeoutError(this.timeoutMs)
    return otherwise(e)
  }

  dispose(): void {
    clearTimeout(this.timer)
    this.signal.removeEventListener('abort', this.onAbort)
    this.stops = []
  }

  private fire(reason: 'cancelled' | 'timeout') {
    if (this.reason) return
    this.reason = reason
    for (const stop of this.stops) this.call(stop, reason)
    setTimeout(() => {
      for (const giveUp of this.pending) giveUp()
    }, GRACE_MS).unref?.()
  }

  private call(stop: (reason: 'cancelled' | 'timeout') => unknown, reason: 'cancelled' | 'timeout') {
    try {
      Promise.resolve(stop(reason)).catch(() => {})
    } catch {
      // a failing cancel leaves the backstop to report the stop
    }
  }
}

/**
 * Rejects with the watch's error if the run is stopped and `promise` has still not settled `GRACE_MS` later (the
 * driver normally reports the cancel itself first), so awaiting a stuck driver call cannot hang the run.
 */
export function raceStop<T>(watch: Watch, pending: Promise<T> | T): Promise<T> {
  // drivers' iterators may answer synchronously (postgres.js's cursor does once the statement has ended)
  const promise = Promise.resolve(pending)
  return new Promise<T>((resolve, reject) => {
    const stuck = () => reject(watch.error())
    if (watch.reason) {
      promise.catch(() => {}) // stopped already: nothing new is waited for
      return stuck()
    }
    watch.pending.add(stuck)
    promise.then(resolve, reject).finally(() => watch.pending.delete(stuck))
  })
}

/** Reads a string option, trimmed; `fallback` when missing or blank. */
export function str(config: Record<string, unknown>, key: string, fallback = ''): string {
  const v = config[key]
  return v === undefined || v === null || String(v).trim() === '' ? fallback : String(v).trim()
}

export function num(config: Record<string, unknown>, key: string, fallback: number): number {
  const v = Number(config[key])
  return config[key] === undefined || config[key] === null || config[key] === '' || !Number.isFinite(v) ? fallback : v
}

export function bool(config: Record<string, unknown>, key: string, fallback = false): boolean {
  const v = config[key]
  if (v === undefined || v === null || v === '') return fallback
  return v === true || v === 'true' || v === 1 || v === '1'
}

/**
 * Opens and closes a TCP connection to host:port, failing within `timeoutMs`: lets test() report an unreachable
 * host quickly when the driver has no connect timeout of its own (its retries can take minutes).
 */
export async function probeTcp(host: string, port: number, timeoutMs: number): Promise<void> {
  const net = await import('node:net')
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host, port })
    const done = (error?: Error) => {
      clearTimeout(timer)
      socket.destroy()
      error ? reject(error) : resolve()
    }
    const timer = setTimeout(() => done(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs)
    socket.once('connect', () => done())
    socket.once('error', (e: NodeJS.ErrnoException) => done(new Error(e.code ?? e.message)))
  })
}
