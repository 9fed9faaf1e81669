import type { Deps } from '../deps.ts'
import { SharedCache } from '../db/index.ts'
import { BadGateway, BadRequest } from '../errors.ts'
import type { Principal } from '../permissions/index.ts'
import { listColumns, listDatabases, listTables, RunnerError } from '../runners/index.ts'
import { getAccessible, runnerConfig } from './service.ts'

const ONLY_DATABRICKS = 'Resource only available for the Databricks query runner.'

// Listing a warehouse's catalog is slow (seconds when it wakes up), so answers are kept for ten minutes per source;
// `refresh` asks the warehouse again.
const cache = new SharedCache<unknown>(10 * 60_000, 1000)

async function databricksSource(deps: Deps, principal: Principal, id: number) {
  const ds = await getAccessible(deps, principal, id)
  if (ds.type !== 'databricks') throw new BadRequest(ONLY_DATABRICKS)
  return ds
}

async function cached<T>(key: string, refresh: boolean, load: () => Promise<T>): Promise<T> {
  if (!refresh) {
    const hit = cache.get(key) as T | undefined
    if (hit !== undefined) return hit
  }
  let value: T
  try {
    value = await load()
  } catch (error) {
    // the warehouse refused or failed: its message is the answer (the browser shows its own text beside it)
    if (error instanceof RunnerError) throw new BadGateway(error.message)
    throw error
  }
  cache.set(key, value)
  return value
}

/** The databases (schemas) of a Databricks source, for the schema browser's dropdown (spec 3 §2). */
export async function databricksDatabases(deps: Deps, principal: Principal, id: number, refresh: boolean): Promise<string[]> {
  const ds = await databricksSource(deps, principal, id)
  return cached(`${ds.id}:databases`, refresh, () => listDatabases(runnerConfig(deps.secretKey, ds)))
}

/** Tables of one database; columns load on expand (`databricksColumns`). */
export async function databricksTables(deps: Deps, principal: Principal, id: number, database: string, refresh: boolean) {
  const ds = await databricksSource(deps, principal, id)
  const names = await cached(`${ds.id}:tables:${database}`, refresh, () => listTables(runnerConfig(deps.secretKey, ds), database))
  return { schema: names.map((name) => ({ name: `${database}.${name}`, columns: [] })), has_columns: false }
}

export async function databricksColumns(deps: Deps, principal: Principal, id: number, database: string, table: string) {
  const ds = await databricksSource(deps, principal, id)
  return cached(`${ds.id}:columns:${database}.${table}`, false, () => listColumns(runnerConfig(deps.secretKey, ds), database, table))
}
