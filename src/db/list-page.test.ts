import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabase, type TestDatabase } from '../../test/helpers/db.ts'
import { countedPage, orderBy, type ListOrdering, type Paging } from './list-page.ts'
import type { Sql } from './sql.ts'

let db: TestDatabase
let sql: Sql
beforeAll(async () => {
  db = await freshDatabase()
  sql = db.sql
  await sql`create table people (id int primary key, name text, seen int, kind text)`
  // ties on seen (2) and empty values (null), so direction, null placement and the tie-break all show
  await sql`insert into people values (1, 'bo', 2, 'a'), (2, 'Ada', null, 'a'), (3, 'cleo', 5, 'b'), (4, 'Dee', 2, 'a'), (5, 'eve', null, 'b')`
})
afterAll(async () => {
  await db?.drop()
})

type Column = 'name' | 'seen'
const ordering = (nulls: 'last' | 'low'): ListOrdering<Column> => ({
  columns: { name: sql`lower(p.name)`, seen: sql`p.seen` }, nulls, tieBreaker: sql`p.id`,
})
const select = (column: Column, descending: boolean, nulls: 'last' | 'low' = 'last', where = sql`true`) => ({
  columns: sql`p.id`, from: sql`people p`, where, orderBy: orderBy(sql, ordering(nulls), { column, descending }),
})
const ids = async (column: Column, descending: boolean, nulls: 'last' | 'low', paging: Paging | null = null) =>
  (await countedPage<{ id: number }>(sql, select(column, descending, nulls), paging)).rows.map((r) => r.id)

describe('ORDER BY of a list', () => {
  it('sorts by the chosen column either way, breaking ties by the unique column in the same direction', async () => {
    expect(await ids('name', false, 'last')).toEqual([2, 1, 3, 4, 5])
    expect(await ids('name', true, 'last')).toEqual([5, 4, 3, 1, 2])
    expect(await ids('seen', false, 'last')).toEqual([1, 4, 3, 2, 5])
    expect(await ids('seen', true, 'last')).toEqual([3, 4, 1, 5, 2])
  })

  it('puts empty values last either way, or as the smallest', async () => {
    expect(await ids('seen', false, 'low')).toEqual([2, 5, 1, 4, 3])
    expect(await ids('seen', true, 'low')).toEqual([3, 4, 1, 5, 2])
  })

  it('refuses a column outside the allow-list, so nothing else can reach the SQL', () => {
    for (const column of ['kind', 'toString', '__proto__', 'seen; drop table people']) {
      expect(() => orderBy(sql, ordering('last'), { column: column as Column, descending: false }), column).toThrow(/Not a sortable column/)
    }
  })
})

describe('a counted page', () => {
  it('returns one page and the count of the whole list', async () => {
    expect(await countedPage(sql, select('name', false), { page: 2, pageSize: 2 })).toEqual({ count: 5, page: 2, rows: [{ id: 3 }, { id: 4 }] })
    expect(await countedPage(sql, select('name', false), { page: 3, pageSize: 2 })).toEqual({ count: 5, page: 3, rows: [{ id: 5 }] })
  })

  it('reads every row when not paged', async () => {
    expect(await countedPage(sql, select('name', true), null)).toMatchObject({ count: 5, page: 1 })
  })

  it('answers a page past the end empty, or with the last page when asked to', async () => {
    expect(await countedPage(sql, select('name', false), { page: 4, pageSize: 2 })).toEqual({ count: 5, page: 4, rows: [] })
    expect(await countedPage(sql, select('name', false), { page: 40, pageSize: 2 }, { pastEnd: 'last' })).toEqual({ count: 5, page: 3, rows: [{ id: 5 }] })
  })

  it('treats every page of an empty list as fine and empty', async () => {
    const none = { ...select('name', false), where: sql`p.kind = 'z'` }
    expect(await countedPage(sql, none, { page: 7, pageSize: 2 }, { pastEnd: 'last' })).toEqual({ count: 0, page: 7, rows: [] })
  })

  it('filters the count and the rows alike, and counts from a cheaper FROM when given', async () => {
    const bs = select('name', false, 'last', sql`p.kind = ${'b'}`)
    expect(await countedPage(sql, bs, { page: 1, pageSize: 1 })).toEqual({ count: 2, page: 1, rows: [{ id: 3 }] })
    const joined = { ...bs, from: sql`people p cross join (values (1), (2)) as twice(n)`, countFrom: sql`people p` }
    expect((await countedPage(sql, joined, { page: 1, pageSize: 10 })).count).toBe(2)
  })

  it('binds search text as a value, never as SQL', async () => {
    const hostile = select('name', false, 'last', sql`p.name = ${"bo' or '1'='1"}`)
    expect(await countedPage(sql, hostile, { page: 1, pageSize: 10 })).toEqual({ count: 0, page: 1, rows: [] })
  })
})
