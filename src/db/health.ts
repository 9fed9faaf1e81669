import { log } from '../log.ts'
import type { Sql } from './sql.ts'

/** Socket errors that mean the database server cannot be reached (or went away mid-conversation). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
/** The driver's own: no answer within connect_timeout, or the connection closed under a query. */
const DRIVER_CODES = new Set(['CONNECT_TIMEOUT', 'CONNECTION_CLOSED'])
/** PostgreSQL's: shutting down (admin_shutdown, crash_shutdown) or not accepting connections yet (cannot_connect_now). */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03'])

/**
 * Whether an error says Sightline's database is unreachable, rather than that a statement failed. A Unix socket that
 * is missing (the server is down) fails its connect with ENOENT, a code many file operations share, so that one
 * counts only from a connect.
 */
export function isConnectionError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, syscall } = e as { code?: unknown; syscall?: unknown }
    if (typeof code !== 'string') continue
    if (NETWORK_CODES.has(code) || DRIVER_CODES.has(code) || SERVER_CODES.has(code)) return true
    if (code.startsWith('08')) return true // connection_exception and its subclasses
    if ((code === 'ENOENT' || code === 'EACCES') && syscall === 'connect') return true
  }
  return false
}

export interface HealthOptions {
  /** Between probes while the database is down: how soon its return is seen. */
  probeMs?: number
  /** A probe that has not answered by then counts as a failure (a server that accepts but never answers). */
  probeTimeoutMs?: number
  /**
   * A request still unanswered after this long has the database probed: a hung server (stopped, paused, cut off by
   * the network) raises no error, it only stays silent, so silence past this point is what asks whether it answers.
   */
  slowRequestMs?: number
}

class ProbeTimeout extends Error {
  constructor(ms: number) {
    super(`no answer from the database within ${ms} ms`)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref?.())

/**
 * What this process knows of its database's reachability. A connection error from a request, or a request slower than
 * `slowRequestMs`, asks for a probe; a failed probe marks the database down. From then on requests are answered 503 at
 * once (instead of each waiting for a connection of its own), those still waiting on it are let go (`onDown`), and
 * the probe runs every `probeMs` until the database answers, which marks it up again. `/ready` asks `check()`.
 *
 * The probe goes through the pool: one that waits longer than `probeTimeoutMs` for a free connection counts as a
 * failure too, so a pool held for that long, whatever holds it, sheds requests with 503 instead of queueing them.
 */
export class DatabaseHealth {
  private downSince: number | undefined
  private checking: Promise<boolean> | undefined
  private stopped = false
  private readonly probeMs: number
  private readonly probeTimeoutMs: number
  /** A request waiting this long has the database probed (see HealthOptions). */
  readonly slowRequestMs: number
  /** Requests waiting on the database, to be let go when it is marked down (a set: each leaves when it ends). */
  private waiting = new Set<() => void>()

  constructor(private probe: () => Promise<unknown>, o: HealthOptions = {}) {
    this.probeMs = o.probeMs ?? 200
    this.probeTimeoutMs = o.probeTimeoutMs ?? 1_500
    this.slowRequestMs = o.slowRequestMs ?? 1_000
  }

  /** Health whose probe is the cheapest statement on the pool itself (so a success also means the pool reconnected). */
  static probing(sql: Sql): DatabaseHealth {
    return new DatabaseHealth(() => sql`select 1`)
  }

  /** False while the database is known to be unreachable. */
  get available(): boolean {
    return this.downSince === undefined
  }

  /**
   * Takes note of an error met on the database; returns whether it was a connection error. Such an error asks for a
   * probe, which marks the database down when it fails too: one pool connection that died with its server process
   * (its error surfacing on its next use) must not turn every request away while the database answers.
   */
  report(error: unknown): boolean {
    if (!isConnectionError(error)) return false
    void this.check()
    return true
  }

  /** A fresh answer for readiness: false at once while known down, else one probe (shared by concurrent callers). */
  check(): Promise<boolean> {
    if (!this.available) return Promise.resolve(false)
    this.checking ??= this.answers().then((ok) => {
      this.checking = undefined
      return ok
    })
    return this.checking
  }

  /**
   * Calls `listener` when the database is next marked down (at once while it is), unless the returned function was
   * called first: what a waiting request races against.
   */
  onDown(listener: () => void): () => void {
    if (!this.available) {
      listener()
      return () => {}
    }
    this.waiting.add(listener)
    return () => this.waiting.delete(listener)
  }

  stop() {
    this.stopped = true
  }

  /** Whether a probe gets an answer in time; a failure marks the database down. */
  private async answers(): Promise<boolean> {
    // a failure is confirmed by a second probe: a quick one may be one more pool connection that died with the old
    // server (the second takes another), a slow one a moment of load rather than a hang
    let error = await this.tryProbe()
    if (error !== undefined) error = await this.tryProbe()
    if (error === undefined) return true
    // any failure of the probe means the database cannot serve, whatever its code
    this.markDown(error)
    return false
  }

  /** One probe, bounded in time: undefined when it answered, else what went wrong. */
  private async tryProbe(): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      // decided after the pending I/O is read (setImmediate runs after the poll phase): when this process itself was
      // busy (a native module loading, a long synchronous step), the answer may be waiting unread, not missing
      timer = setTimeout(() => setImmediate(() => reject(new ProbeTimeout(this.probeTimeoutMs))), this.probeTimeoutMs)
    })
    try {
      await Promise.race([this.probe(), timeout])
      return undefined
    } catch (error) {
      return error ?? new Error('database probe failed')
    } finally {
      clearTimeout(timer)
    }
  }

  private markDown(error: unknown) {
    if (this.downSince !== undefined || this.stopped) return
    this.downSince = Date.now()
    const waiting = [...this.waiting]
    this.waiting.clear()
    for (const letGo of waiting) letGo()
    log.error("Sightline's database is unreachable; answering 503 until it is back", { error: String(error) })
    void this.probeUntilUp()
  }

  private async probeUntilUp() {
    while (!this.stopped) {
      await sleep(this.probeMs)
      if (this.stopped || (await this.tryProbe()) !== undefined) continue
      log.warn("Sightline's database is reachable again", { downMs: Date.now() - this.downSince! })
      this.downSince = undefined
      return
    }
  }
}
