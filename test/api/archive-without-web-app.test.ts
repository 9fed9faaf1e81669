import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAlert } from '../../src/alerts/index.ts'
import { principalToRunAs } from '../../src/credentials/index.ts'
import { createDashboard, createWidget } from '../../src/dashboards/index.ts'
import { createDataSource } from '../../src/data-sources/index.ts'
import { loadConfig } from '../../src/config.ts'
import { createDeps } from '../../src/create-deps.ts'
import { type Deps } from '../../src/deps.ts'
import { FEATURES } from '../../src/features.ts'
import { loadAssets } from '../../src/assets/index.ts'
import { setupOrganization } from '../../src/orgs/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { archiveQuery, createQuery } from '../../src/queries/index.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'

/*
 * A process that never builds the web app (a worker alone, a command line) archives a query: what is built on it
 * goes too. This file never calls createApp, so nothing a web app once registered can stand in for the features.
 */
let db: TestDatabase
let deps: Deps
let admin: Principal

beforeAll(async () => {
  db = await freshDatabase()
  const config = { ...loadConfig({}), databaseUrl: db.url }
  deps = createDeps({ sql: db.sql, config, secretKey: 'test-secret-key', assets: loadAssets(new URL('../../dist', import.meta.url).pathname), features: FEATURES })
  const { userId } = await setupOrganization(db.sql, deps.secretKey, { name: 'Ada', email: 'ada@example.com', password: 'a long password 1', org_name: 'Acme' })
  admin = (await principalToRunAs(db.sql, userId))!
})
afterAll(async () => {
  await deps.executionsDone.stop()
  await db.drop()
})

describe('archiving a query without a web app', () => {
  it('removes its charts from dashboards and deletes its alerts', async () => {
    const source = await createDataSource(deps, admin, { name: 'Shop', type: 'sqlite', options: { dbpath: ':memory:' } })
    const { row: query } = await createQuery(deps, admin, { name: 'Orders', data_source_id: source.id, query: 'select 1 as n' })
    const dashboard = await createDashboard(deps, admin, { name: 'Sales' })
    const [vis] = await db.sql<{ id: number }[]>`select id from visualizations where query_id = ${query.id}`
    await createWidget(deps, admin, { dashboard_id: dashboard.id, visualization_id: vis.id, width: 1, options: {} })
    await createAlert(deps, admin, { name: 'Orders up', query_id: query.id, options: { column: 'n', op: '>', value: 1 } })

    await archiveQuery(deps, admin, query.id)

    expect(await db.sql`select id from widgets where dashboard_id = ${dashboard.id}`).toEqual([])
    expect(await db.sql`select id from alerts where query_id = ${query.id}`).toEqual([])
  })
})
