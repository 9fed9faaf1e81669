import type { Sql } from '../db/sql.ts'
import { log } from '../log.ts'

/** Sent (with the execution id) when an execution finishes, so waiting requests answer without polling. */
export const DONE_CHANNEL = 'sightline_execution'
/** Sent when someone asks a running execution to stop; the worker running it aborts the engine's statement. */
export const CANCEL_CHANNEL = 'sightline_execution_cancel'

/**
 * One LISTEN per process for a channel of execution ids, fanned out to in-process waiters. It starts on first use,
 * so processes that never wait hold no extra connection.
 */
export class ExecutionSignals {
  private waiters = new Map<string, Set<() => void>>()
  private listening: Promise<void> | undefined
  private unlisten: (() => Promise<void>) | undefined

  constructor(private sql: Sql, private channel: string) {}

  /** Resolves once listening, so a check made after it cannot miss a notification sent after the check. */
  start(): Promise<void> {
    this.listening ??= this.sql
      .listen(this.channel, (id) => this.fire(id))
      .then(({ unlisten }) => { this.unlisten = unlisten })
      .catch((error) => {
        this.listening = undefined
        log.warn('execution notifications unavailable', { error: String(error) })
      })
    return this.listening
  }

  /** Calls `fn` when `id` is signalled; returns the function that stops listening for it. */
  on(id: string, fn: () => void): () => void {
    let set = this.waiters.get(id)
    if (!set) this.waiters.set(id, (set = new Set()))
    set.add(fn)
    return () => {
      set.delete(fn)
      if (!set.size) this.waiters.delete(id)
    }
  }

  /**
   * Waits until `id` is signalled or `ms` pass; `check` is asked once listening is set up (for something that
   * happened before) and again when signalled. Resolves to the first non-undefined value `check` gives, else undefined.
   */
  async waitFor<T>(id: string, ms: number, check: () => Promise<T | undefined>): Promise<T | undefined> {
    await this.start()
    let signalled = false
    const note = () => { signalled = true }
    let wake = note
    const off = this.on(id, () => wake())
    const deadline = Date.now() + ms
    try {
      for (;;) {
        signalled = false
        const value = await check()
        if (value !== undefined) return value
        const left = deadline - Date.now()
        if (left <= 0) return undefined
        if (signalled) continue // signalled while checking: check again rather than sleep
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          wake = () => { clearTimeout(timer); resolve() }
        })
        wake = note
      }
    } finally {
      off()
    }
  }

  async stop() {
    await this.unlisten?.().catch(() => {})
  }

  private fire(id: string) {
    for (const fn of this.waiters.get(id) ?? []) fn()
  }
}
