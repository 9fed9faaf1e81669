import type { Config } from './config.ts'
import type { Assets } from './assets/index.ts'
import type { CacheBus, DatabaseHealth, Db, ExecutionSignals, SharedCache, Sql } from './db/index.ts'
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
  /** The features built on queries and executions (src/features.ts), which those call without importing them. */
  features: readonly Feature[]
}

/** A query was archived; features remove what hangs off it, in the archiving transaction. */
export interface QueryArchived {
  queryId: number
  orgId: number
}

/** A run's rows were stored as a result, and these saved queries now show it as their latest (alerts listen here). */
export interface ResultStored {
  resultId: number
  /** Queries whose latest result this became (same source and text); empty for an ad hoc run nobody saved. */
  queryIds: number[]
  orgId: number
  dataSourceId: number
  executionId: string
}

/** A query opened by a key of a feature's own: its row as the queries domain reads it, and its runs' max_age. */
export interface OpenedByKey<Row = unknown> {
  query: Row
  maxAge(asked: number): number
}

/**
 * What a feature built on queries adds to them, each part optional. Named here with platform types only, since
 * every domain reads this file; the queries and executions domains give the shapes their meaning.
 */
export interface Feature {
  name: string
  /** Runs inside the archive's transaction: removes what hangs off the query; a failure undoes the archive. */
  onQueryArchived?: (tx: Db, event: QueryArchived) => Promise<void>
  /** Opens a query by a key of the feature's own (a shared dashboard's token); null when the key is not its. */
  openQueryByKey?: (deps: Deps, queryId: number, key: string) => Promise<OpenedByKey | null>
  /** Told of every result a worker stores, after it is committed. */
  onResultStored?: (sql: Sql) => (event: ResultStored) => Promise<void> | void
}

/**
 * A live share token as found (evicted through the cache bus on any change to its key, its dashboard, its creator or
 * the organization's settings, by the writer and by triggers: sql/migrations/0055): its dashboard and creator, and
 * what it opens; `opened` is null while it opens nothing (archived dashboard, public URLs off, creator disabled).
 */
export interface ShareTokenEntry {
  dashboardId: number
  createdBy: number | null
  opened: { dashboard: { id: number; org_id: number }; creator: Principal } | null
}

/**
 * A data source as a request checks it, kept by each web process (evicted on any change to the source or its groups
 * through the cache bus, `data_source:<id>`): its row as the data-sources domain reads it, and the groups that may use it.
 */
export interface DataSourceEntry {
  row: { id: number; org_id: number }
  grants: { groupId: number; viewOnly: boolean }[]
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
  /** Live dashboard share tokens by the hex of their hash: the dashboard each opens, with its creator's rights. */
  shareTokens: SharedCache<ShareTokenEntry>
  /** Data sources by id, with the groups that may use them. */
  dataSources: SharedCache<DataSourceEntry>
  assets: Assets
  /** Finished executions, announced by the workers: run requests wait on these to answer with the result. */
  executionsDone: ExecutionSignals
  /** Whether the database can be reached: requests answer 503 at once while it cannot. */
  database: DatabaseHealth
}
