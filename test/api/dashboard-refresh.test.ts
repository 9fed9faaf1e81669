import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findDataSource } from '../../src/data-sources/index.ts'
import type { Sql } from '../../src/db/index.ts'
import { submit, type ExecuteInput } from '../../src/executions/index.ts'
import { addUser, signInAs, startWorkerFor, type Client } from '../helpers/app.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { settle } from '../helpers/jobs.ts'
import { newQuery, queryFixture, type QueryFixture } from './queries-fixture.ts'

/**
 * What a dashboard's widgets rely on (decision 0017): a refresh is a run of the saved query with a max_age, and
 * viewers refreshing the same widget within that age share one execution, joined while it runs, reused after. And
 * the page hands each chart widget's island what it needs to refresh, download and draw again.
 */
let f: QueryFixture
let worker: { stop(): Promise<void> }

beforeAll(async () => {
  f = await queryFixture()
  worker = await startWorkerFor(f.t)
})
afterAll(async () => {
  await worker?.stop()
  await f.t.close()
})

const executionsOf = async (queryId: number) =>
  Number((await f.t.db.sql<{ n: string }[]>`select count(*) as n from executions where query_id = ${queryId}`)[0].n)

const refresh = async (client: Client, queryId: number, maxAge: number) => {
  const res = await client.post(`/api/queries/${queryId}/results`, { parameters: {}, max_age: maxAge })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as { job?: { id: string }; query_result?: { id: number } }
}

describe('refreshing a widget', () => {
  it('makes one execution for two viewers within max_age: the second joins the run in flight, a later one takes its result', async () => {
    const lock = await holdLock(f.t.db.sql)
    const query = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Shared refresh', query: lock.query('42 as answer') })
    let job: { id: string } | undefined
    try {
      // the run waits for the test's lock, so it is surely still running when the second viewer asks
      const first = await refresh(f.bo, query.id, 60)
      const second = await refresh(f.cleo, query.id, 60)
      job = first.job
      expect(job?.id).toBeDefined()
      expect(second.job?.id).toBe(job!.id)
      expect(await executionsOf(query.id)).toBe(1)
    } finally {
      await lock.release()
    }
    expect((await settle(f.bo, job!)).status).toBe(3)
    // within the age the stored result answers at once, with no execution at all
    const later = await refresh(f.cleo, query.id, 60)
    expect(later.query_result?.id).toBeGreaterThan(0)
    expect(await executionsOf(query.id)).toBe(1)
    // the Refresh button asks for age 0: a new run
    const now = await refresh(f.cleo, query.id, 0)
    if (now.job) expect((await settle(f.cleo, now.job)).status).toBe(3)
    expect(await executionsOf(query.id)).toBe(2)
  })
})

describe('a refresh racing the end of the run it would join', () => {
  it('takes the result of a run that ended between its look for one and its insert, and starts no second run', async () => {
    const lock = await holdLock(f.t.db.sql)
    const query = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Raced refresh', query: lock.query('7 as answer') })
    const [org] = await f.t.db.sql<{ id: number }[]>`select org_id as id from queries where id = ${query.id}`
    const input: ExecuteInput = {
      orgId: org.id, dataSource: (await findDataSource(f.t.db.sql, org.id, f.warehouse))!, text: lock.query('7 as answer'),
      queryId: query.id, userId: null, maxAge: 60, applyAutoLimit: false,
    }
    const first = await submit(f.t.deps, input)
    expect('execution' in first).toBe(true)
    const firstId = 'execution' in first ? first.execution.id : ''
    // the second viewer looks for a fresh result while the first run holds the lock; the run then ends before the
    // second viewer's insert, as it does on a busy server
    const raced = new Proxy(f.t.deps.sql, {
      apply(target, self, args: [TemplateStringsArray, ...unknown[]]) {
        const looked = Reflect.apply(target, self, args) as Promise<unknown[]>
        if (!args[0]?.join?.('').includes('from query_results')) return looked
        return looked.then(async (rows) => {
          await lock.release()
          for (let i = 0; i < 200; i++) {
            const [e] = await f.t.db.sql<{ status: number }[]>`select status from executions where id = ${firstId}`
            if (e.status >= 3) break
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
          return rows
        })
      },
    }) as Sql
    try {
      const second = await submit({ ...f.t.deps, sql: raced }, input)
      expect('result' in second && second.result.id).toBeGreaterThan(0)
      expect(await executionsOf(query.id)).toBe(1)
    } finally {
      await lock.release()
    }
  })
})

describe('the chart widget on the dashboard page', () => {
  let board: number
  let queryId: number
  let latest: number

  beforeAll(async () => {
    const query = await newQuery(f.bo, { data_source_id: f.warehouse, name: 'Widget data', query: "select 'North' as region, 7 as n" })
    queryId = query.id
    const ran = await refresh(f.bo, queryId, 0)
    latest = ran.query_result?.id ?? (await settle(f.bo, ran.job!)).query_result_id!
    board = (await (await f.bo.post('/api/dashboards', { name: 'Widget props' })).json()).id
    const visualization = (query.visualizations as { id: number }[])[0].id
    const added = await f.bo.post('/api/widgets', { dashboard_id: board, visualization_id: visualization, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } } })
    expect(added.status).toBe(200)
  })

  /** The props the page wrote for its DashboardWidget island. */
  async function widgetProps(client: Client) {
    const html = await (await client.get(`/dashboards/${board}`)).text()
    const props = /<script type="application\/json" data-island-props="(i\d+)">([^<]*)<\/script><sightline-island data-name="DashboardWidget" data-id="\1" data-hydrate="visible"/.exec(html)
    expect(props, 'a DashboardWidget island hydrated when visible').not.toBeNull()
    return { html, props: JSON.parse(props![2]) }
  }

  it('gives the island the result to download and the visualization to draw again, and sends the drawing only once', async () => {
    const { html, props } = await widgetProps(f.cleo)
    expect(props.widget).toMatchObject({ queryId, resultId: latest, canViewQuery: true, note: null, visualization: { type: 'TABLE' } })
    expect(props.drawing).toEqual({})
    expect(html.match(/North/g)).toHaveLength(1)
    expect(html).toContain(`href="/queries/${queryId}"`)
  })

  it('shows the query name without a link to those without view_query (spec 2 §6)', async () => {
    const sql = f.t.db.sql
    const { id } = await addUser(f.t, { name: 'Wally', email: 'wally@example.com', password: 'wally-password' })
    const [org] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
    const [lookers] = await sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Lookers', ${['list_dashboards']}) returning id`
    await sql`insert into data_source_groups (data_source_id, group_id, view_only) values (${f.warehouse}, ${lookers.id}, true)`
    await sql`delete from user_groups where user_id = ${id}`
    await sql`insert into user_groups (user_id, group_id) values (${id}, ${lookers.id})`
    const wally = (await signInAs(f.t.app, 'wally@example.com', 'wally-password')).client
    const { html, props } = await widgetProps(wally)
    expect(props.widget.canViewQuery).toBe(false)
    expect(html).toContain('Widget data')
    expect(html).not.toContain(`href="/queries/${queryId}"`)
  })
})
