import type { Assets } from './assets/index.ts'
import type { Config } from './config.ts'
import { CacheBus, DatabaseHealth, DONE_CHANNEL, ExecutionSignals, SharedCache, type Sql } from './db/index.ts'
import type { DataSourceEntry, Deps, Feature, ShareTokenEntry } from './deps.ts'
import { provideDemoDatabase } from './demo/index.ts'
import type { Principal } from './permissions/index.ts'
import type { OrgContext } from './settings/index.ts'

/** The web process's dependencies, built once at start-up (src/start.ts) and by the tests' helpers. */
export function createDeps(o: { sql: Sql; config: Config; secretKey: string; assets: Assets; features: readonly Feature[] }): Deps {
  const bus = new CacheBus(o.sql)
  const principals = new SharedCache<Principal>(30_000)
  const orgs = new SharedCache<OrgContext>(30_000, 16)
  const csrfTokens = new SharedCache<string>(3_600_000)
  // the TTL only bounds a missed message: every change to what a token opens is announced (sql/migrations/0055)
  const shareTokens = new SharedCache<ShareTokenEntry>(300_000, 5_000)
  // the TTL only bounds a missed message: every change to a source or its groups is announced (sql/migrations/0052)
  const dataSources = new SharedCache<DataSourceEntry>(30_000, 1_000)
  bus.on('data_source', (id) => dataSources.delete(id))
  // a change to a token or its dashboard evicts it; a creator's change evicts the tokens they made
  bus.on('share', (id) => shareTokens.deleteWhere((e) => String(e.dashboardId) === id))
  bus.on('user', (id) => shareTokens.deleteWhere((e) => String(e.createdBy) === id))
  bus.on('user', (id) => principals.deleteWhere((p) => String(p.id) === id))
  bus.on('session', (hash) => principals.deleteWhere((p) => p.sessionHash === hash))
  bus.on('org', () => {
    orgs.clear()
    // an organization may turn public URLs off
    shareTokens.clear()
    dataSources.clear()
    // permissions and names shown in sessions can depend on org-wide changes (groups); start afresh
    principals.clear()
  })
  bus.onResync(() => {
    shareTokens.clear()
    dataSources.clear()
    orgs.clear()
    principals.clear()
  })
  const database = DatabaseHealth.probing(o.sql)
  // Test Connection and the first-run Demo source open the demo shop in this process
  provideDemoDatabase(o.config.dataDir)
  return { ...o, bus, principals, orgs, csrfTokens, shareTokens, dataSources, executionsDone: new ExecutionSignals(o.sql, DONE_CHANNEL), database }
}
