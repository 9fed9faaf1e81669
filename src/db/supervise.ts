import type { EmbeddedPostgres } from './embedded.ts'
import { log } from '../log.ts'

export interface SupervisorOptions {
  /** How often the server is looked for. */
  checkMs?: number
  /** Waits before each restart attempt in a row; their count bounds the attempts. */
  backoffMs?: number[]
  /** Called once the attempts are used up: the process cannot serve without its database. */
  onGiveUp?: (error: unknown) => void
}

export interface Supervisor {
  stop(): Promise<void>
}

/** About a minute of attempts: a server that cannot start in that time needs an operator (disk full, bad config). */
const BACKOFF_MS = [0, 250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]

/**
 * Keeps the embedded PostgreSQL running while this process uses it. It runs detached (it may belong to another
 * process sharing the data dir), so it is watched by its pid rather than as a child: when it has gone without
 * Sightline stopping it (killed, crashed, stopped by hand), it is started again on the same port, so pools and
 * listeners reconnect to the same address. `restart` takes the data dir's lock, so processes that notice together
 * start it once.
 */
export function superviseEmbedded(pg: EmbeddedPostgres, o: SupervisorOptions = {}): Supervisor {
  const checkMs = o.checkMs ?? 200
  const backoffMs = o.backoffMs ?? BACKOFF_MS
  let stopped = false
  let wake: (() => void) | undefined
  const pause = (ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    timer.unref?.()
    wake = () => { clearTimeout(timer); resolve() }
  })

  async function restart() {
    const gone = Date.now()
    log.error('embedded PostgreSQL stopped unexpectedly; restarting it', { clusterDir: pg.clusterDir })
    let lastError: unknown
    for (const [attempt, wait] of backoffMs.entries()) {
      if (wait) await pause(wait)
      if (stopped) return
      try {
        const pid = await pg.restart()
        log.warn('embedded PostgreSQL restarted', { pid, attempt: attempt + 1, ms: Date.now() - gone })
        return
      } catch (error) {
        lastError = error
        log.warn('embedded PostgreSQL restart failed', { attempt: attempt + 1, error: String(error) })
      }
    }
    log.error('embedded PostgreSQL could not be restarted', { attempts: backoffMs.length, error: String(lastError) })
    stopped = true
    o.onGiveUp?.(lastError)
  }

  const watching = (async () => {
    while (!stopped) {
      if (pg.runningPid() === undefined) await restart()
      await pause(checkMs)
    }
  })()

  return {
    stop: async () => {
      stopped = true
      wake?.()
      await watching
    },
  }
}
