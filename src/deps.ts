import type { Config } from './config.ts'
import { CacheBus, SharedCache } from './db/cache.ts'
import { DatabaseHealth } from './db/health.ts'
import { provideDemoDatabase } from './demo/dataset.ts'
import type { Sql } from './db/sql.ts'
import type { ResultStoredSubscriber } from './executions/result-stored.ts'
import type { QueryArchivedSubscriber } from './queries/archived.ts'
import type { QueryKeyOpener } from './queries/object-keys.ts'
import type { OrgContext } from './orgs/context.ts'
import type { Principal } from './permissions/principal.ts'
import type { Assets } from './http/assets.ts'
import { DONE_CHANNEL, ExecutionSignals } from './executions/events.ts'

/**
 * What services need in any process, the worker's included: the database, the settings and the key that seals
 * secrets. A service that takes only this (or a part of it) can be called from a worker task.
 */
export interface CoreDeps {
  sql: Sql
  config: Config
  secretKey: string
  /** The features built on queries and executions (src/features.ts), which those call without importing them. */
  features: readonly Feature[]
}

/** What a feature built on queries adds to them; each part optional. */
export interface Feature {
  name: string
  /** Runs inside the archive's transaction: removes what hangs off the query; a failure undoes the archive. */
  onQueryArchived?: QueryArchivedSubscriber
  /** Opens a query by a key of the feature's own (a shared dashboard's token); null when the key is not its. */
  openQueryByKey?: QueryKeyOpener
  /** Told of every result a worker stores, after it is committed. */
  onResultStored?: (sql: Sql) => ResultStoredSubscriber
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

export function createDeps(o: { sql: Sql; config: Config; secretKey: string; assets: Assets; features: readonly Feature[] }): Deps {
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
