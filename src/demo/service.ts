import path from 'node:path'
import type { Deps } from '../deps.ts'
import * as dataSources from '../data-sources/store.ts'
import { log } from '../log.ts'
import { ensureDemoDatabase } from './dataset.ts'

export const DEMO_NAME = 'Demo'

/**
 * Give a new organization a ready "Demo" source: a DuckDB file of a small shop in the data dir, opened read-only
 * so the web and worker processes can both use it. A failure here must not fail setup; it is logged.
 */
export async function addDemoSource(deps: Deps, orgId: number): Promise<number | undefined> {
  const file = path.join(deps.config.dataDir, 'demo', 'shop.duckdb')
  try {
    await ensureDemoDatabase(file)
    return await deps.sql.begin(async (tx) => {
      if (await dataSources.nameTaken(tx, orgId, DEMO_NAME)) return undefined
      const row = await dataSources.insert(tx, { orgId, name: DEMO_NAME, type: 'duckdb', options: { dbpath: file, read_only: true }, secrets: null })
      await dataSources.addToDefaultGroup(tx, orgId, row.id)
      return row.id
    })
  } catch (error) {
    log.warn('the demo data source could not be created', { error: String(error) })
    return undefined
  }
}
