import crypto from 'node:crypto'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyIn } from '../../src/db/index.ts'
import { chunkJson } from '../../src/results/index.ts'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> }
let dsId: number

/** Rows of every kind a result holds: numbers, text needing quotes and escapes, nulls, timestamps, JSON. */
const rowsQuery = (n: number) => `
  select g as id, g * 2 as twice, md5(g::text) as hash, timestamp '2024-01-01' + g * interval '1 second' as at,
         case when g % 7 = 0 then null else 'ünï "q", ✓ ' || g end as note, jsonb_build_object('g', g, 'odd', g % 2 = 1) as doc
    from generate_series(1, ${n}) g`

async function stored(n: number): Promise<number> {
  const { result, error } = await outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: dsId, query: rowsQuery(n), max_age: 0 }))
  expect(error).toBeUndefined()
  return result.id
}

/** What a user downloads of a result: its CSV, and its JSON as the browser reads it. */
async function downloads(id: number) {
  const csv = await admin.get(`/api/query_results/${id}.csv`)
  const json = await admin.get(`/api/query_results/${id}.json`)
  expect([csv.status, json.status]).toEqual([200, 200])
  return { csv: await csv.text(), json: await json.text() }
}

/** Rewrites a result's stored chunks as an older Sightline wrote them. */
async function restoreAs(id: number, old: (json: Buffer) => Buffer) {
  for (const { seq, rows } of await t.db.sql<{ seq: number; rows: Uint8Array }[]>`select seq, rows from query_result_chunks where result_id = ${id}`) {
    await t.db.sql`update query_result_chunks set rows = ${old(await chunkJson(rows))} where result_id = ${id} and seq = ${seq}`
  }
}
const brotli = (json: Buffer) => Buffer.concat([Buffer.of(0xff), zlib.brotliCompressSync(json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } })])
const deflate = (json: Buffer) => zlib.deflateRawSync(json, { level: 1 })

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  worker = await startWorkerFor(t)
})
afterAll(async () => {
  await worker?.stop()
  await t.close()
})

describe('stored results', () => {
  it('download with every row, as CSV and JSON, from a result of many chunks', async () => {
    const id = await stored(60_000)
    const { csv, json } = await downloads(id)
    const lines = csv.split('\r\n')
    expect(lines).toHaveLength(60_002) // header, rows, and the empty string after the last line end
    expect(lines[0]).toBe('id,twice,hash,at,note,doc')
    expect(lines[1]).toBe(`1,2,${crypto.createHash('md5').update('1').digest('hex')},01/01/24 00:00,"ünï ""q"", ✓ 1","{""g"":1,""odd"":true}"`)
    const { query_result: result } = JSON.parse(json)
    expect(result.data.rows).toHaveLength(60_000)
    expect(result.data.rows[6]).toMatchObject({ id: 7, twice: 14, note: null, doc: { g: 7, odd: true } })
    expect(result.data.rows.at(-1)).toMatchObject({ id: 60_000, hash: crypto.createHash('md5').update('60000').digest('hex') })
  })

  it.each([['brotli', brotli], ['raw deflate', deflate]])('stored as %s by an older Sightline are served byte for byte as before', async (_, old) => {
    for (const n of [60_000, 25_000, 40]) { // read through COPY, in one query, and with the result itself
      const id = await stored(n)
      const now = await downloads(id)
      await restoreAs(id, old)
      expect(await downloads(id)).toEqual(now)
      const again = await outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: dsId, query: rowsQuery(n), max_age: -1 }))
      expect(again.result.id).toBe(id)
      expect(again.result.data.rows).toEqual(JSON.parse(now.json).query_result.data.rows)
    }
  })

  it('a chunk the database refuses once its rows are in (its result is gone) fails the store instead of leaving it waiting', async () => {
    // the foreign key is checked at the COPY's end, after the data: the error the driver would otherwise drop
    const write = copyIn(t.db.sql`copy query_result_chunks (result_id, seq, rows) from stdin`, [Buffer.from('987654321\t0\t\\\\xfe00\n')])
    await expect(write).rejects.toThrow(/foreign key/)
    expect(await t.db.sql`select 1 from query_result_chunks where result_id = 987654321`).toHaveLength(0)
  })
})
