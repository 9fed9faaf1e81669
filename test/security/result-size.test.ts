/**
 * One huge value must not freeze the server: results are capped in bytes as well as rows, per value and per result,
 * while they stream. A value over the cell cap is cut (ending with "…"), a result over the byte cap stops at a row,
 * both are marked truncated with a message in the result's log, and what is stored still views and downloads.
 * On PostgreSQL the engine itself cuts the value, so it never crosses the wire whole.
 */
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'

const KB = 1024
const CELL_CAP = 64 * KB
const RESULT_CAP = 1024 * KB
const CUT_MESSAGE = 'Values longer than 64 KB were cut to that size; each ends with "…".'

let t: TestApp
let admin: Client
let worker: { stop(): Promise<void> } | undefined
let proxy: CountingProxy
let ds: number

/** A TCP proxy in front of the engine that counts the bytes the engine sends. */
interface CountingProxy {
  port: number
  received: number
  close(): Promise<void>
}

async function countingProxy(host: string, port: number): Promise<CountingProxy> {
  const sockets = new Set<net.Socket>()
  const state = { received: 0 }
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => { client.destroy(); upstream.destroy() })
      s.on('close', () => { sockets.delete(s); client.destroy(); upstream.destroy() })
    }
    upstream.on('data', (chunk: Buffer) => { state.received += chunk.length })
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as net.AddressInfo).port,
    get received() { return state.received },
    set received(n: number) { state.received = n },
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy()
      server.close(() => r())
    }),
  }
}

const run = async (query: string) => {
  const outcome = await outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: ds, query, max_age: 0 }))
  if (!outcome.result) throw new Error(`the run failed: ${outcome.error}`)
  return outcome.result
}

beforeAll(async () => {
  t = await createTestApp({ maxCellBytes: CELL_CAP, maxResultBytes: RESULT_CAP })
  admin = await setUp(t.app)
  const options = pgOptionsFor(t)
  proxy = await countingProxy(options.host, options.port)
  const res = await admin.post('/api/data_sources', { name: 'Wide', type: 'pg', options: { ...options, host: '127.0.0.1', port: proxy.port, sslmode: 'disable' } })
  expect(res.status).toBe(200)
  ds = (await res.json()).id
  worker = await startWorkerFor(t)
})
afterAll(async () => {
  await worker?.stop()
  await proxy?.close()
  await t?.close()
})

describe('a value over the cell cap', () => {
  it('is cut by the engine to the cap, ending with "…", and the result is marked truncated with a message', async () => {
    proxy.received = 0
    const result = await run("select 1 as n, repeat('z', 8 * 1024 * 1024) as wide, 'kept' as short")
    const [row] = result.data.rows
    expect(row.n).toBe(1)
    expect(row.short).toBe('kept')
    expect(row.wide).toBe(`${'z'.repeat(CELL_CAP - 3)}…`)
    expect(Buffer.byteLength(row.wide)).toBe(CELL_CAP)
    expect(result.data.truncated).toBe(true)
    expect(result.data.log).toContain(CUT_MESSAGE)
    // the 8 MB value never crossed the wire: the engine sent about one cap's worth for the whole run
    expect(proxy.received).toBeLessThan(4 * CELL_CAP)
  })

  it('is cut by the writer where the engine cannot cut it (several statements), multi-byte text on a character', async () => {
    const result = await run("select 1; select repeat('é', 100000) as wide")
    const wide: string = result.data.rows[0].wide
    expect(wide.endsWith('…')).toBe(true)
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(CELL_CAP)
    expect(wide).toBe(`${'é'.repeat((CELL_CAP - 4) / 2)}…`)
    expect(result.data.truncated).toBe(true)
    expect(result.data.log).toContain(CUT_MESSAGE)
  })

  it('is cut in json columns and in the result of a statement with RETURNING, which keep shorter values whole', async () => {
    const result = await run(`
      with made as (select 1 as id, jsonb_build_object('long', repeat('x', 100000)) as doc, '{"a": [1, 2]}'::jsonb as small)
      select * from made`)
    const [row] = result.data.rows
    // half an object is no object: its text as the engine wrote it, cut
    expect(row.doc).toBe(`{"long": "${'x'.repeat(CELL_CAP - 3 - 10)}…`)
    expect(row.small).toEqual({ a: [1, 2] })
    await t.db.sql`create table if not exists notes (id int, body text)`
    const inserted = await run("insert into notes values (1, repeat('q', 300000)) returning id, body")
    expect(inserted.data.rows[0]).toEqual({ id: 1, body: `${'q'.repeat(CELL_CAP - 3)}…` })
    expect(inserted.data.truncated).toBe(true)
  })

  it('leaves a result within the caps untouched and not truncated', async () => {
    const result = await run("select g, repeat('a', 1000) as text, 'b'::char(3) as padded from generate_series(1, 50) g")
    expect(result.data.rows).toHaveLength(50)
    expect(result.data.rows[0]).toEqual({ g: 1, text: 'a'.repeat(1000), padded: 'b  ' })
    expect(result.data.truncated ?? false).toBe(false)
  })
})

describe('a result over the byte cap', () => {
  it('stops at the last row that fits, marked truncated with a message; its JSON and CSV downloads work', async () => {
    const result = await run("select g, repeat('y', 50000) as filler from generate_series(1, 1000) g order by g")
    const rows = result.data.rows
    expect(result.data.truncated).toBe(true)
    expect(rows.length).toBeGreaterThan(15)
    expect(rows.length).toBeLessThan(21) // 20 rows of 50 KB fill 1 MB
    expect(rows.map((r: { g: number }) => r.g)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1))
    expect(result.data.log).toContain(`The result was cut after ${rows.length} rows, at 1 MB, the most the server keeps of one result.`)

    const json = await admin.get(`/api/query_results/${result.id}.json`)
    expect(json.status).toBe(200)
    const body = await json.json()
    expect(body.query_result.data.rows).toHaveLength(rows.length)
    expect(body.query_result.data.truncated).toBe(true)
    const csv = await admin.get(`/api/query_results/${result.id}.csv`)
    expect(csv.status).toBe(200)
    const lines = (await csv.text()).trimEnd().split('\r\n')
    expect(lines).toHaveLength(rows.length + 1)
    expect(lines[1]).toBe(`1,${'y'.repeat(50000)}`)
  })

  it('keeps the views and downloads of a result with a cut value working', async () => {
    const result = await run("select 'head' as label, repeat('w', 500000) as wide")
    for (const format of ['json', 'csv', 'tsv']) {
      const res = await admin.get(`/api/query_results/${result.id}.${format}`)
      expect(res.status, format).toBe(200)
      expect((await res.arrayBuffer()).byteLength, format).toBeGreaterThan(CELL_CAP - 3)
    }
    const xlsx = await admin.get(`/api/query_results/${result.id}.xlsx`)
    expect(xlsx.status).toBe(200)
    expect(Buffer.from(await xlsx.arrayBuffer()).subarray(0, 2).toString()).toBe('PK') // a whole zip, not an error
    const csv = await (await admin.get(`/api/query_results/${result.id}.csv`)).text()
    expect(csv.trimEnd().split('\r\n')[1]).toBe(`head,${'w'.repeat(CELL_CAP - 3)}…`)
  })
})

describe('a result of wide rows, at the default caps', () => {
  let wide: TestApp
  let client: Client
  let wideWorker: { stop(): Promise<void> } | undefined
  beforeAll(async () => {
    wide = await createTestApp()
    client = await setUp(wide.app)
    wideWorker = await startWorkerFor(wide)
  })
  afterAll(async () => {
    await wideWorker?.stop()
    await wide?.close()
  })

  it('is stored in chunks of a few megabytes, not one as large as the result, and reads back whole', async () => {
    const res = await client.post('/api/data_sources', { name: 'Default caps', type: 'pg', options: pgOptionsFor(wide) })
    const source = (await res.json()).id
    const query = "select g, repeat('v', 1000000) as wide from generate_series(1, 20) g order by g"
    const outcome = await outcomeOf(client, await client.post('/api/query_results', { data_source_id: source, query, max_age: 0 }))
    const rows = outcome.result.data.rows
    expect(rows.map((r: { g: number }) => r.g)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(rows.every((r: { wide: string }) => r.wide === 'v'.repeat(1_000_000))).toBe(true)
    expect(outcome.result.data.truncated ?? false).toBe(false)
    const [{ chunks }] = await wide.db.sql<{ chunks: number }[]>`select count(*)::int as chunks from query_result_chunks where result_id = ${outcome.result.id}`
    expect(chunks).toBeGreaterThanOrEqual(2) // 20 MB of JSON: at most 8 MB or so a chunk
    const csv = (await (await client.get(`/api/query_results/${outcome.result.id}.csv`)).text()).trimEnd().split('\r\n')
    expect(csv).toHaveLength(21)
    expect(csv[20]).toBe(`20,${'v'.repeat(1_000_000)}`)
  })
})
