import type { Sql } from './sql.ts'
import { log } from '../log.ts'

/**
 * Sent (with the execution id) when an execution finishes, so waiting requests answer without polling; a small result
 * comes along after a space (`<id> <json>`), so they answer without reading it again.
 */
export const DONE_CHANNEL = 'sightline_execution'
/** Sent when someone asks a running execution to stop; the worker running it aborts the engine's statement. */
export const CANCEL_CHANNEL = 'sightline_execution_cancel'

const RECENT_MS = 60_000
const RECENT_MAX = 2_000

/**
 * One LISTEN per process for a channel of execution ids, fanned out to in-process waiters. It starts on first use,
 * so processes that never wait hold no extra connection.
 */
export class ExecutionSignals {
  private waiters = new Map<string, Set<(carried?: string) => void>>()
  /** Ids signalled lately (when, and what came along), so a listener that arrives just after its signal still hears it. */
  private recent = new Map<string, { at: number; carried?: string }>()
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
  on(id: string, fn: (carried?: string) => void): () => void {
    const recent = this.recent.get(id)
    if (recent !== undefined && Date.now() - recent.at < RECENT_MS) queueMicrotask(() => fn(recent.carried))
    let set = this.waiters.get(id)
    if (!set) this.waiters.set(id, (set = new Set()))
    set.add(fn)
    return () => {
      set.delete(fn)
      if (!set.size) this.waiters.delete(id)
    }
  }

  /**
   * Starts listening for `id` now (before the execution exists, so its end cannot be missed), and returns a waiter:
   * `wait(ms, check)` resolves to the first non-undefined value of `check`, asked whenever `id` is signalled, with
   * what came along with the signal (and at once if `checkFirst`), or to undefined after `ms`. `stop()` when done.
   */
  watch(id: string) {
    let signalled = false
    let carried: string | undefined
    let wake = () => { signalled = true }
    const off = this.on(id, (payload) => {
      carried = payload
      wake()
    })
    // a signal sent before LISTEN is up is not heard: then the first wait checks anyway
    const heardFromNow = this.unlisten !== undefined
    const listening = this.start()
    return {
      wait: async <T>(ms: number, check: (carried?: string) => Promise<T | undefined>, checkFirst = true): Promise<T | undefined> => {
        await listening
        // without notifications (LISTEN refused, e.g. behind a transaction-mode pooler) the wait polls instead
        if (this.unlisten === undefined) return this.poll(ms, check)
        const deadline = Date.now() + ms
        let ask = checkFirst || signalled || !heardFromNow
        for (;;) {
          if (ask) {
            signalled = false
            const value = await check(carried)
            if (value !== undefined) return value
          }
          const left = deadline - Date.now()
          if (left <= 0) return undefined
          if (!signalled) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, left)
              wake = () => { signalled = true; clearTimeout(timer); resolve() }
            })
            wake = () => { signalled = true }
          }
          ask = signalled
          if (!ask) return undefined
        }
      },
      stop: off,
    }
  }

  /** `check` every 100 ms until it answers or `ms` have passed. */
  private async poll<T>(ms: number, check: (carried?: string) => Promise<T | undefined>): Promise<T | undefined> {
    const deadline = Date.now() + ms
    for (;;) {
      const value = await check()
      if (value !== undefined || Date.now() >= deadline) return value
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, deadline - Date.now())))
    }
  }

  /** `watch(id).wait(ms, check)` for an execution that may already have ended. */
  async waitFor<T>(id: string, ms: number, check: (carried?: string) => Promise<T | undefined>): Promise<T | undefined> {
    const waiter = this.watch(id)
    try {
      return await waiter.wait(ms, check, true)
    } finally {
      waiter.stop()
    }
  }

  async stop() {
    await this.unlisten?.().catch(() => {})
  }

  private fire(payload: string) {
    const space = payload.indexOf(' ')
    const id = space < 0 ? payload : payload.slice(0, space)
    const carried = space < 0 ? undefined : payload.slice(space + 1)
    this.recent.set(id, { at: Date.now(), carried })
    if (this.recent.size > RECENT_MAX) {
      // the oldest go first: a Map keeps insertion order
      for (const key of [...this.recent.keys()].slice(0, this.recent.size - RECENT_MAX / 2)) this.recent.delete(key)
    }
    for (const fn of this.waiters.get(id) ?? []) fn(carried)
  }
}
