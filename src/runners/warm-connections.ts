/**
 * Idle engine connections kept for reuse, by configuration. Opening a connection (TCP, TLS, SCRAM, a new server
 * process) costs more than a small query, so a worker keeps a few warm per source. Each connection is used by one
 * run at a time and reset before it goes back (the runner's `reset`), so nothing a query changed in the session
 * (a role, a setting, a temporary table) reaches the next run.
 */
export class WarmConnections<C> {
  private idle = new Map<string, { conn: C; timer: ReturnType<typeof setTimeout> }[]>()

  constructor(private o: { close: (conn: C) => Promise<unknown>; maxIdlePerKey: number; idleMs: number }) {}

  /** A warm connection for this key, or undefined (the caller opens a new one). */
  take(key: string): C | undefined {
    const list = this.idle.get(key)
    const entry = list?.pop()
    if (!entry) return undefined
    clearTimeout(entry.timer)
    if (!list!.length) this.idle.delete(key)
    return entry.conn
  }

  /** Keeps a connection that was reset and is known good; closes it when the key already has enough. */
  give(key: string, conn: C): void {
    const list = this.idle.get(key) ?? []
    if (list.length >= this.o.maxIdlePerKey) {
      void this.o.close(conn)
      return
    }
    const entry = { conn, timer: setTimeout(() => this.expire(key, entry), this.o.idleMs) }
    entry.timer.unref?.()
    list.push(entry)
    this.idle.set(key, list)
  }

  /** Closes every idle connection (process shutdown, tests). */
  async closeAll(): Promise<void> {
    const all = [...this.idle.values()].flat()
    this.idle.clear()
    for (const entry of all) clearTimeout(entry.timer)
    await Promise.all(all.map((entry) => this.o.close(entry.conn)))
  }

  get size(): number {
    return [...this.idle.values()].reduce((n, list) => n + list.length, 0)
  }

  private expire(key: string, entry: { conn: C; timer: ReturnType<typeof setTimeout> }) {
    const list = this.idle.get(key)
    const at = list?.indexOf(entry) ?? -1
    if (at < 0) return
    list!.splice(at, 1)
    if (!list!.length) this.idle.delete(key)
    void this.o.close(entry.conn)
  }
}
