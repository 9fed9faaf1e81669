import type { Deps } from '../deps.ts'
import * as dataSources from '../data-sources/index.ts'
import { log } from '../log.ts'
import { DEMO_DBPATH, demoDatabaseFile, ensureDemoDatabase } from './dataset.ts'

export const DEMO_NAME = 'Demo'

/**
 * Give a new organization a ready "Demo" source: a small shop in DuckDB, opened read-only. The source names the
 * shop (`sightline:demo`), not a file, so every process uses the copy in its own data directory (built here for this
 * one, so the first query is quick; another process builds its own on first use). A failure here must not fail
 * setup; it is logged.
 */
export async function addDemoSource(deps: Deps, orgId: number): Promise<number | undefined> {
  try {
    await ensureDemoDatabase(demoDatabaseFile(deps.config.dataDir))
    return await deps.sql.begin(async (tx) => {
      if (await dataSources.nameTaken(tx, orgId, DEMO_NAME)) return undefined
      const row = await dataSources.insert(tx, { orgId, name: DEMO_NAME, type: 'duckdb', options: { dbpath: DEMO_DBPATH, read_only: true }, secrets: null })
      await dataSources.addToDefaultGroup(tx, orgId, row.id)
      return row.id
    })
  } catch (error) {
    log.warn('the demo data source could not be created', { error: String(error) })
    return undefined
  }
}
