import type { Config } from './config.ts'
import type { Assets } from './assets/index.ts'
import type { CacheBus, DatabaseHealth, ExecutionSignals, SharedCache, Sql } from './db/index.ts'
import type { OrgContext } from './settings/index.ts'
import type { Principal } from './permissions/index.ts'

/* Types only: every domain reads these, so they name nothing above the platform band. createDeps, which builds
 * them, is composed above everything, in src/create-deps.ts. */

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
