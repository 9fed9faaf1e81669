import fs from 'node:fs'
import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { referenceResolver, type ReferenceScope } from '../../src/executions/index.ts'
import { findReferences, resultsRunner as runner } from '../../src/runners/index.ts'
import { runJobs, type Client } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from '../api/queries-fixture.ts'
import { cancelWhileStreaming, collect, expectRunnerError, opts, waitUntil } from './support.ts'

/*
 * The Query Results source against real engines: referenced queries run on the test's PostgreSQL or are read from
 * their stored results, through the executions domain's resolver, and the SQL runs on SQLite or DuckDB.
 */
let f: QueryFixture
let orgId: number
let orders: QueryJson
let customers: QueryJson
let counted: QueryJson
let param: QueryJson
let hidden: QueryJson
let neverRun: QueryJson
let selfish: QueryJson
const chain: QueryJson[] = []

const ORDERS = `select * from (values
  (1, 10, 2.5::float8, true, date '2024-01-02', timestamptz '2024-01-02 03:04:05+00', '007'),
  (2, 10, 4.0::float8, false, date '2024-02-29', timestamptz '2024-03-01 10:00:00+00', '008'),
  (3, 11, 1.5::float8, true, date '2024-03-01', timestamptz '2024-03-02 12:30:00+00', null)
) as t(id, customer_id, amount, paid, day, at, code)`

async function ran(client: Client, q: QueryJson) {
  const res = await client.post(`/api/queries/${q.id}/results`, { max_age: 0 })
  expect(res.status, await res.clone().text()).toBe(200)
  await runJobs(f.t)
}

const scope = (userId: number): ReferenceScope => ({
  sql: f.t.db.sql, secretKey: f.t.deps.secretKey, orgId, orgTimeLimitSeconds: 0, userId,
  maxResultRows: 1_000_000, maxCellBytes: 1_000_000, sources: new Set(),
})

async function rowsOf(engine: string, text: string, userId = f.ids.admin) {
  const s = scope(userId)
  const stream = await runner.run({ engine }, text, { ...opts(), queryResults: referenceResolver(s) })
  return { columns: stream.columns, rows: (await collect(stream)).rows, sources: [...s.sources].sort() }
}

const refused = (engine: string, text: string, message: string | RegExp, userId = f.ids.admin) =>
  expectRunnerError(runner.run({ engine }, text, { ...opts(), queryResults: referenceResolver(scope(userId)) }), 'query', message)

beforeAll(async () => {
  f = await queryFixture()
  ;[{ id: orgId }] = await f.t.db.sql<{ id: number }[]>`select id from organizations where slug = 'default'`
  const results = (await (await f.admin.post('/api/data_sources', { name: 'Results', type: 'results', options: {} })).json()).id as number
  orders = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Orders', query: ORDERS })
  customers = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Customers', query: "select * from (values (10, 'Ann'), (11, 'Ben')) as t(id, name)" })
  counted = await newQuery(f.admin, { data_source_id: results, name: 'Counted', query: `select count(*) as n from query_${orders.id}` })
  param = await newQuery(f.admin, {
    data_source_id: f.warehouse, name: 'Param', query: 'select {{n}}::int as n, {{n}}::int * 2 as twice',
    options: { parameters: [{ name: 'n', title: 'n', type: 'number', value: 1 }] },
  })
  hidden = await newQuery(f.admin, { data_source_id: f.shared, name: 'Hidden', query: 'select 1 as x' })
  neverRun = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Never run', query: 'select 1 as x' })
  selfish = await newQuery(f.admin, { data_source_id: results, name: 'Selfish', query: 'select 1 as x' })
  await f.admin.post(`/api/queries/${selfish.id}`, { query: `select * from query_${selfish.id}`, version: selfish.version })
  // six Query Results queries, each reading the one before
  let previous = 'select 1 as x'
  for (let i = 0; i < 6; i++) {
    const q = await newQuery(f.admin, { data_source_id: results, name: `Level ${i + 1}`, query: previous })
    chain.push(q)
    previous = `select x + 1 as x from query_${q.id}`
  }
  await ran(f.admin, orders)
  await ran(f.admin, customers)
})
afterAll(() => f?.t.close())

describe('finding references', () => {
  it('finds them after FROM and JOIN, in comma joins and quoted, never in strings or comments', () => {
    const { references, text } = findReferences(`-- from query_99
      select 'from query_98', a.x from query_1 a, "cached_query_2" b join [query_3] c on c.x = b.x, \`query_4\`
       where a.x in (select x from param_query_5_{a=1&b=two%20words}) /* join query_97 */`)
    expect(references.map((r) => [r.kind, r.queryId, r.parameters])).toEqual([
      ['live', 1, {}], ['cached', 2, {}], ['live', 3, {}], ['live', 4, {}], ['param', 5, { a: '1', b: 'two words' }],
    ])
    const table = references[4].table
    expect(table).toMatch(/^param_query_5_[0-9a-f]{12}$/)
    expect(text).toContain(`from ${table})`)
    expect(text).toContain("'from query_98'")
    // a column called like a query is no reference
    expect(findReferences('select query_7 from t where query_8 = 1').references).toEqual([])
  })
})

describe.each(['sqlite', 'duckdb'])('Query Results on %s', (engine) => {
  it('reads query_N (run now) and cached_query_N (stored) with the types their results have', async () => {
    const live = await rowsOf(engine, `select * from query_${orders.id} order by id`)
    expect(live.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'integer'], ['customer_id', 'integer'], ['amount', 'float'], ['paid', 'boolean'], ['day', 'date'], ['at', 'datetime'], ['code', 'string'],
    ])
    expect(live.rows[0].slice(0, 5)).toEqual([1, 10, 2.5, true, '2024-01-02'])
    expect(String(live.rows[0][5])).toMatch(/^2024-01-02[T ]03:04:05/)
    // '007' stays text: the stored result says so, whatever the value looks like
    expect(live.rows.map((r) => r[6])).toEqual(['007', '008', null])
    expect(live.sources).toEqual([f.warehouse])
    const cached = await rowsOf(engine, `select id, code from cached_query_${orders.id} order by id`)
    expect(cached.columns.map((c) => c.type)).toEqual(['integer', 'string'])
    expect(cached.rows).toEqual([[1, '007'], [2, '008'], [3, null]])
  })

  it('joins with commas and JOIN, and reads quoted names', async () => {
    const joined = await rowsOf(engine, `
      select c.name, sum(o.amount) as total from query_${orders.id} o, "cached_query_${customers.id}" c
       where o.customer_id = c.id group by c.name order by c.name`)
    expect(joined.rows).toEqual([['Ann', 6.5], ['Ben', 1.5]])
    const quoted = await rowsOf(engine, `select count(*) as n from "query_${orders.id}" o join "cached_query_${customers.id}" c on c.id = o.customer_id`)
    expect(Number(quoted.rows[0][0])).toBe(3)
  })

  it('runs param_query_N with the values given, and query_N with its defaults', async () => {
    expect((await rowsOf(engine, `select n, twice from param_query_${param.id}_{n=5}`)).rows).toEqual([[5, 10]])
    expect((await rowsOf(engine, `select n, twice from query_${param.id}`)).rows).toEqual([[1, 2]])
    await refused(engine, `select * from param_query_${param.id}_{n=abc}`, new RegExp(`^Failed loading results for query id ${param.id}: `))
  })

  it('resolves nested references, and refuses a cycle and references nested too deep', async () => {
    expect((await rowsOf(engine, `select n from query_${counted.id}`)).rows).toEqual([[3]])
    expect((await rowsOf(engine, `select x from query_${chain[4].id}`)).rows).toEqual([[5]])
    await refused(engine, `select * from query_${chain[5].id}`, `Query references nest more than 5 levels deep (at query id ${chain[0].id}).`)
    await refused(engine, `select * from query_${selfish.id}`, `Query references form a cycle: query ${selfish.id} → query ${selfish.id}.`)
  })

  it('says which query is missing, forbidden or has no stored result', async () => {
    await refused(engine, 'select * from query_987654', 'Query id 987654 not found.')
    await refused(engine, `select * from query_${hidden.id}`, `You do not have access to query id ${hidden.id}.`, f.ids.bo)
    await refused(engine, `select * from cached_query_${neverRun.id}`, `No cached result available for query ${neverRun.id}.`)
    await expectRunnerError(runner.run({ engine }, `select * from query_${orders.id}`, opts()), 'query', /run only for a user|signed-in user/)
  })

  it('passes Test Connection, and stops a running query on cancel', async () => {
    await runner.test({ engine }, new AbortController().signal)
    const before = scratchDirs()
    const controller = new AbortController()
    const stream = await runner.run({ engine }, `
      with recursive c(n) as (select 1 union all select n + 1 from c) select c.n, o.id from c, query_${orders.id} o`,
    { signal: controller.signal, timeoutMs: 60_000, queryResults: referenceResolver(scope(f.ids.admin)) })
    await cancelWhileStreaming(stream, controller)
    // the scratch database goes with its thread (SQLite) or engine (DuckDB)
    await waitUntil(async () => scratchDirs() <= before - 1 || scratchDirs() === 0)
  })
})

function scratchDirs(): number {
  return fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith('sightline-results-')).length
}
