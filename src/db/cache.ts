import type { Sql } from './sql.ts'
import { log } from '../log.ts'

const CHANNEL = 'sightline_cache'

/**
 * What changed: a user, the organization, a session, a shared dashboard or its token (`share:<dashboard id>`), or a
 * data source or the groups that may use it (`data_source:<id>`). Triggers send them too, whoever writes:
 * sql/migrations/0052 (data sources), 0055 (share tokens, shared dashboards, users' rights, organizations' settings).
 */
export type CacheTopic = 'user' | 'org' | 'session' | 'share' | 'data_source'

interface Entry<V> {
  value: V
  expiresAt: number
}

/**
 * Small per-process caches for what every request reads (who is calling, the organization's settings).
 * A change anywhere calls `invalidate`, which evicts here at once and tells every other Sightline process through
 * NOTIFY, so a revoked session stops working everywhere within a round trip, and the TTL bounds any missed message.
 */
export class SharedCache<V> {
  private entries = new Map<string, Entry<V>>()
  /** Counts evictions, so a value read from the database before one is not kept after it (see `set`). */
  private evictions = 0

  constructor(
    private ttlMs: number,
    private maxEntries = 10_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt < Date.now()) {
      this.entries.delete(key)
      return undefined
    }
    return entry.value
  }

  /** Where evictions stand now: pass it to `set` with a value read after this. */
  get generation(): number {
    return this.evictions
  }

  /**
   * Keeps a value. Given the generation taken before the value was read, a value that an eviction may have
   * overtaken meanwhile (its notification arrived while the read was under way) is not kept.
   */
  set(key: string, value: V, readSince?: number) {
    if (readSince !== undefined && readSince !== this.evictions) return
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string)
    this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs })
  }

  delete(key: string) {
    this.evictions++
    this.entries.delete(key)
  }

  deleteWhere(predicate: (value: V, key: string) => boolean) {
    this.evictions++
    for (const [key, entry] of this.entries) if (predicate(entry.value, key)) this.entries.delete(key)
  }

  clear() {
    this.evictions++
    this.entries.clear()
  }
}

type Handler = (id: string) => void

/** Carries invalidations between processes. */
export class CacheBus {
  private handlers = new Map<CacheTopic, Handler[]>()
  private resyncs: (() => void)[] = []
  private unlisten: (() => Promise<void>) | undefined

  constructor(private sql: Sql) {}

  on(topic: CacheTopic, handler: Handler) {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler])
  }

  /** `fn` runs when invalidations may have been missed: caches that hear this bus should start afresh. */
  onResync(fn: () => void) {
    this.resyncs.push(fn)
  }

  async listen() {
    let listened = false
    const { unlisten } = await this.sql.listen(CHANNEL, (payload) => this.dispatch(payload), () => {
      // the driver listens again after its connection dropped (the database restarted, say): anything sent meanwhile
      // was not heard
      if (listened) for (const fn of this.resyncs) fn()
      listened = true
    })
    this.unlisten = unlisten
  }

  async stop() {
    await this.unlisten?.().catch(() => {})
  }

  /**
   * Evict here now, for a change whose trigger tells every process at its commit (sql/migrations/0052, 0055): the
   * writer's next request must not wait for that message to come back.
   */
  evict(topic: CacheTopic, id: string | number) {
    this.dispatch(`${topic}:${id}`)
  }

  /** Evict locally now, then in every other process. */
  async invalidate(topic: CacheTopic, id: string | number) {
    const payload = `${topic}:${id}`
    this.dispatch(payload)
    await this.sql.notify(CHANNEL, payload).catch((error) => log.warn('cache invalidation not sent', { error: String(error) }))
  }

  private dispatch(payload: string) {
    const at = payload.indexOf(':')
    const topic = payload.slice(0, at) as CacheTopic
    for (const handler of this.handlers.get(topic) ?? []) handler(payload.slice(at + 1))
  }
}
