import postgres from 'postgres'

/** A postgres.js client on Sightline's own database. Store functions take it (or a transaction) first. */
export type Sql = postgres.Sql<{}>
export type Tx = postgres.TransactionSql<{}>
/** Either the pool or an open transaction: stores accept both. */
export type Db = Sql | Tx

export interface ConnectOptions {
  max?: number
  /**
   * Commits return before the WAL reaches the disk (`synchronous_commit = off`): about 0.2 ms instead of one disk
   * flush (4-5 ms here). An operating-system crash may then lose the last fraction of a second of commits, never
   * corrupt them; only for writes Sightline can redo (see docs/decisions/0012-async-commit.md).
   */
  asyncCommit?: boolean
}

/**
 * How long a connection attempt may take (seconds). A server that does not answer by then is taken for down, so a
 * request answers 503 quickly instead of hanging on the driver's default of 30 s.
 */
export const CONNECT_TIMEOUT_S = 2

/**
 * Seconds before a pool connection tries again after failing: short and capped, so a pool is back within a fraction
 * of a second of the database's return (the driver's own backoff grows to 20 s over an outage of a few seconds).
 */
export const reconnectDelay = (retries: number) => Math.min(0.05 * 2 ** retries, 0.5)

export function connect(url: string, options: ConnectOptions = {}): Sql {
  const { url: address, host } = splitHostParameter(url)
  return postgres(address, {
    ...(host ? { host } : {}),
    max: options.max ?? 10,
    connect_timeout: CONNECT_TIMEOUT_S,
    backoff: reconnectDelay,
    onnotice: () => {},
    connection: { application_name: 'sightline', ...(options.asyncCommit ? { synchronous_commit: 'off' } : {}) },
    // bigint ids fit in a JS number for any realistic install; the wire format stays numeric.
    types: { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
  }) as Sql
}

/**
 * The URL's `host` parameter, libpq's way of naming a socket directory (or another host) beside the address:
 * `postgres://u:p@localhost:5432/db?host=/run/pg`, as the embedded server hands out. pg and psql read it, but
 * postgres.js would send it to the server as a setting, so it is taken out and given as the host.
 */
export function splitHostParameter(url: string): { url: string; host?: string } {
  const u = new URL(url)
  const host = u.searchParams.get('host')
  if (!host) return { url }
  u.searchParams.delete('host')
  return { url: u.toString(), host }
}

/** The same database URL, for a client (graphile-worker's pg) whose sessions commit asynchronously. */
export function asyncCommitUrl(url: string): string {
  const u = new URL(url)
  const options = u.searchParams.get('options')
  u.searchParams.set('options', `${options ? `${options} ` : ''}-c synchronous_commit=off`)
  return u.toString()
}

/**
 * Runs `fn` in a transaction whose commit does not wait for the disk flush: for redoable writes on a request's
 * critical path (queueing an execution and its audit event), where the flush would be most of the time taken.
 */
export function withAsyncCommit<T>(sql: Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    await tx`set local synchronous_commit = off`
    return fn(tx)
  }) as Promise<T>
}
