import type { Config } from './config.ts'
import { CacheBus, SharedCache, DatabaseHealth } from './db/index.ts'
import { provideDemoDatabase } from './demo/index.ts'
import type { Sql } from './db/index.ts'
import type { OrgContext } from './settings/index.ts'
import type { Principal } from './permissions/index.ts'
import type { Assets } from './http/index.ts'
import { DONE_CHANNEL, ExecutionSignals } from './executions/index.ts'

/**
 * What services need in any process, the worker's included: the database, the settings and the key that seals
 * secrets. A service that takes only this (or a part of it) can be called from a worker task.
 */
export interface CoreDeps {
  sql: Sql
  config: Config
  secretKey: string
}

/** The web process's parts on top: caches shared across requests, browser assets, waiting on finished executions. */
export interface Deps extends CoreDeps {
  bus: CacheBus
  /** Authenticated callers by credential (`s:<session token>` or `k:<api key>`); never leaves the process. */
  principals: SharedCache<Principal>
  /** The organization and its effective settings. */
  orgs: SharedCache<OrgContext>
  /** CSRF tokens by session token (derived, so caching them is safe). */
  csrfTokens: SharedCache<string>
  assets: Assets
  /** Finished executions, announced by the workers: run requests wait on these to answer with the result. */
  executionsDone: ExecutionSignals
  /** Whether the database can be reached: requests answer 503 at once while it cannot. */
  database: DatabaseHealth
}

export function createDeps(o: { sql: Sql; config: Config; secretKey: string; assets: Assets }): Deps {
  const bus = new CacheBus(o.sql)
  const principals = new SharedCache<Principal>(30_000)
  const orgs = new SharedCache<OrgContext>(30_000, 16)
  const csrfTokens = new SharedCache<string>(3_600_000)
  bus.on('user', (id) => principals.deleteWhere((p) => String(p.id) === id))
  bus.on('session', (hash) => principals.deleteWhere((p) => p.sessionHash === hash))
  bus.on('org', () => {
    orgs.clear()
    // permissions and names shown in sessions can depend on org-wide changes (groups); start afresh
    principals.clear()
  })
  bus.onResync(() => {
    orgs.clear()
    principals.clear()
  })
  const database = DatabaseHealth.probing(o.sql)
  // Test Connection and the first-run Demo source open the demo shop in this process
  provideDemoDatabase(o.config.dataDir)
  return { ...o, bus, principals, orgs, csrfTokens, executionsDone: new ExecutionSignals(o.sql, DONE_CHANNEL), database }
}
