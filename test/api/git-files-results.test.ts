import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runJobs } from '../helpers/app.ts'
import { contentFixture, exported, imported, rowVersions, wipe, type ContentFixture } from './git-files-fixture.ts'

/**
 * Query Results queries as files: the store keeps `query_N`, `cached_query_N` and `param_query_N_{…}` with this
 * instance's ids; a file names the query by its key in braces (`query_{regions}`), so the file reads the same on any
 * instance and goes through an emptied store (where every id changes) and back to the same bytes.
 */
let f: ContentFixture
let first: Record<string, string>
let combined: number
const TEXT = (regions: number | string) => [
  'select r.region, c.region as cached',
  `from query_${regions} r`,
  `join cached_query_${regions} c on 1 = 1`,
  "where r.region <> 'query_1' -- not query_1 either",
].join('\n')
const PARAM_TEXT = (revenue: number | string) => `select p.n from Param_Query_${revenue}_{region=eu} p, [query_${revenue}]`

beforeAll(async () => {
  f = await contentFixture()
  const results = (await (await f.admin.post('/api/data_sources', { name: 'Query Results', type: 'results', options: {} })).json()).id
  const res = await f.admin.post('/api/queries', { data_source_id: results, name: 'Combined', query: TEXT(f.ids.regions) })
  expect(res.status, await res.clone().text()).toBe(200)
  combined = (await res.json()).id
  expect((await f.admin.post('/api/queries', { data_source_id: results, name: 'Eu revenue', query: PARAM_TEXT(f.ids.revenue) })).status).toBe(200)
  first = await exported(f.admin)
})
afterAll(() => f?.t.close())

describe('a Query Results query in a file', () => {
  it('names the queries it reads by key where a table goes, and leaves strings and comments alone', () => {
    const file = first['queries/combined.sql']
    expect(file).toContain('-- source: Query Results\n')
    expect(file.endsWith(`-- ---\n${TEXT('{regions}')}\n`)).toBe(true)
    // a parameterised one keeps its values, any case and quotes are kept
    expect(first['queries/eu-revenue.sql'].endsWith(`-- ---\n${PARAM_TEXT('{revenue-by-month}')}\n`)).toBe(true)
    // the SQL of other sources is never rewritten
    expect(first['queries/revenue-by-month.sql']).toContain('select 1 as n, {{ region }} as region')
  })

  it('writes nothing when nothing changed', async () => {
    const before = await rowVersions(f.t)
    const run = await imported(f.admin, { files: first })
    expect(run.errors).toEqual([])
    expect(run.kinds.queries).toEqual({ created: 0, updated: 0, unchanged: 5, pruned: 0 })
    expect(await rowVersions(f.t)).toBe(before)
  })

  it('goes through an emptied store, where every id changes, and back to the same bytes', async () => {
    await wipe(f.t)
    const run = await imported(f.admin, { files: first })
    expect(run.errors).toEqual([])
    expect(run.kinds.queries.created).toBe(5)
    const now = Object.fromEntries((await f.t.db.sql<{ key: string; id: number }[]>`select key, id::int from queries`).map((q) => [q.key, q.id]))
    expect(now.regions).not.toBe(f.ids.regions)
    expect(now['revenue-by-month']).not.toBe(f.ids.revenue)
    expect(now.combined).not.toBe(combined)
    // the store holds this instance's ids, and the query reads the queries it named
    const [stored] = await f.t.db.sql`select query from queries where id = ${now.combined}`
    expect(stored.query).toBe(TEXT(now.regions))
    expect((await f.t.db.sql`select query from queries where key = 'eu-revenue'`)[0].query).toBe(PARAM_TEXT(now['revenue-by-month']))
    expect(await exported(f.admin)).toEqual(first)
    await f.admin.post(`/api/queries/${now.regions}/results`, { max_age: 0 })
    await runJobs(f.t)
    const ran = await f.admin.post(`/api/queries/${now.combined}/results`, { max_age: 0 })
    expect(ran.status, await ran.clone().text()).toBe(200)
    const { job } = await ran.json()
    await runJobs(f.t)
    const done = await (await f.admin.get(`/api/jobs/${job.id}`)).json()
    expect(done.job.error).toBe('')
    const result = await (await f.admin.get(`/api/query_results/${done.job.query_result_id}`)).json()
    expect(result.query_result.data.rows).toEqual([{ region: 'eu', cached: 'eu' }])
  })

  it('refuses a key that names no query, and an id, naming the file and the line', async () => {
    const file = (text: string) => `-- ---\n-- name: Broken\n-- source: Query Results\n-- ---\nselect 1\nunion all\n${text}\n`
    const run = await imported(f.admin, {
      files: {
        'queries/unknown-key.sql': file('select n from query_{no-such-query}'),
        'queries/by-id.sql': file('select n from\n  cached_query_12'),
        'queries/bad-key.sql': file('select n from "query_{Regions}"'),
      },
    })
    expect(run.errors).toEqual([
      { file: 'queries/bad-key.sql', line: 7, message: 'query_{Regions}: "Regions" is not a query key (lower-case letters, digits, "-" and "_")' },
      { file: 'queries/by-id.sql', line: 8, message: 'cached_query_12: name the query by its key (cached_query_{<key>}), not by id' },
      { file: 'queries/unknown-key.sql', line: 7, message: 'query_{no-such-query}: there is no query with the key "no-such-query"' },
    ])
    expect(await f.t.db.sql`select id from queries where key in ('unknown-key', 'by-id', 'bad-key')`).toEqual([])
  })

  it('refuses a query that reads a query whose own file failed, whatever their order, leaving nothing that points nowhere', async () => {
    const file = (source: string, text: string) => `-- ---\n-- name: Part\n-- source: ${source}\n-- ---\n${text}\n`
    const run = await imported(f.admin, {
      files: {
        'queries/a-reader.sql': file('Query Results', 'select n from query_{z-base}'),
        'queries/z-base.sql': file('Nowhere', 'select 1 as n'),
      },
    })
    expect(run.errors).toEqual([
      { file: 'queries/z-base.sql', line: null, message: 'source: there is no data source named "Nowhere"' },
      { file: 'queries/a-reader.sql', line: 5, message: 'query_{z-base}: there is no query with the key "z-base"' },
    ])
    expect(await f.t.db.sql`select id from queries where key in ('a-reader', 'z-base')`).toEqual([])
  })
})
