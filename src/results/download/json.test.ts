import { describe, expect, it } from 'vitest'
import type { Cell } from '../../runners/index.ts'
import { queryResultJsonStream, type QueryResultMeta } from './json.ts'
import { column, fixedSource, textOf } from './test-support.ts'

const META: QueryResultMeta = {
  id: 42,
  query_hash: '0cc175b9c0f1b6a831c399e269772661',
  query: 'SELECT "a"\nFROM t',
  data_source_id: 3,
  runtime: 0.125,
  retrieved_at: new Date('2024-05-07T13:04:05.678Z'),
}

describe('queryResultJsonStream', () => {
  it('writes the established shape: rows as objects keyed by column name, fields in its order', async () => {
    const columns = [column('id', 'integer'), column('name'), column('ok', 'boolean'), column('at', 'datetime')]
    const rows: Cell[][] = [
      [1, 'x', true, '2024-05-07T13:04:05.678Z'],
      [2, null, false, null],
    ]
    const text = await textOf(queryResultJsonStream(META, columns, fixedSource(rows.slice(0, 1), [], rows.slice(1))))
    const body = JSON.parse(text)
    expect(body).toEqual({
      query_result: {
        id: 42,
        query_hash: META.query_hash,
        query: META.query,
        data: {
          columns,
          rows: [
            { id: 1, name: 'x', ok: true, at: '2024-05-07T13:04:05.678Z' },
            { id: 2, name: null, ok: false, at: null },
          ],
        },
        data_source_id: 3,
        runtime: 0.125,
        retrieved_at: '2024-05-07T13:04:05.678Z',
      },
    })
    expect(Object.keys(body.query_result)).toEqual([
      'id', 'query_hash', 'query', 'data', 'data_source_id', 'runtime', 'retrieved_at',
    ])
    expect(text).toBe(JSON.stringify(body)) // compact, as a JSON.stringify of the whole would be
  })

  it('escapes strings exactly as JSON.stringify does', async () => {
    const values = [
      'quote " backslash \\ slash /',
      'controls \u0000\u0001\b\t\n\f\r\u001f\u007f',
      'unicode Zürich 東京 😀 \u2028\u2029',
      'lone \ud800 high and \udc00 low, pair \ud83d\ude00',
      '',
    ]
    const text = await textOf(queryResultJsonStream(META, [column('s')], fixedSource(values.map((v) => [v]))))
    const rowsJson = text.slice(text.indexOf('"rows":') + 7, text.indexOf(']},"data_source_id"') + 1)
    expect(rowsJson).toBe(JSON.stringify(values.map((s) => ({ s }))))
  })

  it('writes numbers, JSON values and keys like JSON.stringify, non-finite numbers as null', async () => {
    const columns = [column('n', 'float'), column('j', null), column('we"ird\nkey')]
    const rows: Cell[][] = [
      [1e21, { nested: { list: [1, 'a', null] } }, 'x'],
      [-0.000001, [true, false], 'y'],
      [Number.NaN, null, null],
      [Number.POSITIVE_INFINITY],
    ]
    const body = JSON.parse(await textOf(queryResultJsonStream(META, columns, fixedSource(rows))))
    expect(body.query_result.data.rows).toEqual([
      { n: 1e21, j: { nested: { list: [1, 'a', null] } }, 'we"ird\nkey': 'x' },
      { n: -0.000001, j: [true, false], 'we"ird\nkey': 'y' },
      { n: null, j: null, 'we"ird\nkey': null },
      { n: null, j: null, 'we"ird\nkey': null },
    ])
  })

  it('adds data.truncated only when the result was truncated, and keeps a string retrieved_at as given', async () => {
    const meta = { ...META, truncated: true, retrieved_at: '2024-05-07T13:04:05.678+00:00' }
    const body = JSON.parse(await textOf(queryResultJsonStream(meta, [column('a')], fixedSource([['x']]))))
    expect(body.query_result.data).toEqual({ columns: [column('a')], rows: [{ a: 'x' }], truncated: true })
    expect(body.query_result.retrieved_at).toBe('2024-05-07T13:04:05.678+00:00')
    const plain = JSON.parse(await textOf(queryResultJsonStream(META, [column('a')], fixedSource([['x']]))))
    expect('truncated' in plain.query_result.data).toBe(false)
  })

  it('writes an empty result and a result without columns', async () => {
    const empty = JSON.parse(await textOf(queryResultJsonStream(META, [column('a')], fixedSource())))
    expect(empty.query_result.data).toEqual({ columns: [column('a')], rows: [] })
    const noColumns = JSON.parse(await textOf(queryResultJsonStream(META, [], fixedSource([[], []]))))
    expect(noColumns.query_result.data).toEqual({ columns: [], rows: [{}, {}] })
  })

  it('sends only name, friendly_name and type of each column', async () => {
    const extra = { ...column('a', 'integer'), internal: 'secret' }
    const body = JSON.parse(await textOf(queryResultJsonStream(META, [extra], fixedSource())))
    expect(body.query_result.data.columns).toEqual([{ name: 'a', friendly_name: 'a', type: 'integer' }])
  })
})
