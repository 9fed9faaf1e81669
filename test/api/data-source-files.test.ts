import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'

/*
 * A Files source as its admin and its members use it: files uploaded (CSV, Excel, Parquet, JSON lines) or listed by
 * URL become tables, queried with SQL; only admins change them; a file is checked before it is kept.
 */
let t: TestApp
let admin: Client
let member: Client
let worker: { stop(): Promise<void> }
let source: number
let dir: string

const csv = 'id,customer,amount\n1,ana,10.5\n2,bo,20\n3,ana,4.5\n'

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Customers')
  for (const row of rows) sheet.addRow(row)
  return Buffer.from(await book.xlsx.writeBuffer())
}

async function parquet(sql: string): Promise<Buffer> {
  const file = path.join(dir, `p${Math.random().toString(36).slice(2)}.parquet`)
  const db = await DuckDBInstance.create(':memory:')
  const conn = await db.connect()
  await conn.run(`copy (${sql}) to '${file}' (format parquet)`)
  conn.closeSync()
  db.closeSync()
  return fs.readFileSync(file)
}

/** A multipart upload as the browser's form or a script sends it. */
async function upload(client: Client, url: string, files: [name: string, bytes: Buffer | string][], headers: Record<string, string> = {}) {
  const form = new FormData()
  for (const [name, bytes] of files) form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name)
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return t.app.request(url, { method: 'POST', body: form, headers: { ...(cookie ? { cookie } : {}), ...(url.startsWith('/api/') ? { 'x-csrf-token': client.csrf } : {}), ...headers } })
}

/** What a run of `query` ended with: its result, or its error. */
const run = async (client: Client, query: string, dataSourceId = source) =>
  outcomeOf(client, await client.post('/api/query_results', { data_source_id: dataSourceId, query, max_age: 0 }))

const rowsOf = async (client: Client, query: string, dataSourceId = source) => {
  const { result, error } = await run(client, query, dataSourceId)
  if (!result) throw new Error(`no result: ${error}`)
  return result.data.rows
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-files-test-'))
  t = await createTestApp({ maxUploadBytes: 200_000 })
  admin = await setUp(t.app)
  await addUser(t, { name: 'Mia Member', email: 'mia@example.com', password: 'member password' })
  member = (await signInAs(t.app, 'mia@example.com', 'member password')).client
  worker = await startWorkerFor(t)
  const res = await admin.post('/api/data_sources', { name: 'Spreadsheets', type: 'files', options: {} })
  expect(res.status).toBe(200)
  source = (await res.json()).id
})
afterAll(async () => {
  await worker.stop()
  await t.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('a Files source', () => {
  it('makes each uploaded file a table named after it, which SQL joins across formats', async () => {
    const res = await upload(admin, `/api/data_sources/${source}/files`, [
      ['orders.csv', csv],
      ['Customers 2024.xlsx', await workbook([['customer', 'city'], ['ana', 'Lisbon'], ['bo', 'Oslo']])],
      ['events.parquet', await parquet('select i as id, i * 2 as doubled from range(1000) t(i)')],
      ['logs.jsonl', '{"level":"info","n":1}\n{"level":"warn","n":2}\n'],
    ])
    expect(res.status).toBe(200)
    expect((await res.json()).map((f: { table: string }) => f.table)).toEqual(['orders', 'customers_2024', 'events', 'logs'])

    expect(await rowsOf(member, `
      select c.city, sum(o.amount) as total from orders o join customers_2024 c using (customer) group by c.city order by c.city`))
      .toEqual([{ city: 'Lisbon', total: 15 }, { city: 'Oslo', total: 20 }])
    expect(await rowsOf(member, 'select count(*) as n, max(doubled) as top from events')).toEqual([{ n: 1000, top: 1998 }])
    expect(await rowsOf(member, "select n from logs where level = 'warn'")).toEqual([{ n: 2 }])
  })

  it('lists its files to admins, replaces a file uploaded again under its name, and names a clash _2', async () => {
    await upload(admin, `/api/data_sources/${source}/files`, [['orders.csv', 'id,customer,amount\n9,zoe,1\n']])
    expect(await rowsOf(admin, 'select customer from orders')).toEqual([{ customer: 'zoe' }])
    const clash = await upload(admin, `/api/data_sources/${source}/files`, [['ORDERS.tsv', 'id\tnote\n1\tfrom tsv\n']])
    expect((await clash.json())[0].table).toBe('orders_2')
    expect(await rowsOf(admin, 'select note from orders_2')).toEqual([{ note: 'from tsv' }])
    const listed = await (await admin.get(`/api/data_sources/${source}/files`)).json()
    expect(listed.map((f: { name: string; table: string }) => [f.name, f.table])).toEqual([
      ['Customers 2024.xlsx', 'customers_2024'], ['events.parquet', 'events'], ['logs.jsonl', 'logs'], ['orders.csv', 'orders'], ['ORDERS.tsv', 'orders_2'],
    ])
  })

  it('shows its tables and their columns in the schema browser', async () => {
    const first = await (await admin.get(`/api/data_sources/${source}/schema?refresh=true`)).json()
    expect(first.job).toBeTruthy()
    await expect.poll(async () => (await (await admin.get(`/api/jobs/${first.job.id}`)).json()).job.status).toBe(3)
    const { schema } = await (await member.get(`/api/data_sources/${source}/schema`)).json()
    expect(schema.map((s: { name: string }) => s.name)).toEqual(['customers_2024', 'events', 'logs', 'orders', 'orders_2'])
    expect(schema.find((s: { name: string }) => s.name === 'events').columns.map((c: { name: string }) => c.name)).toEqual(['id', 'doubled'])
  })

  it('forgets a deleted file: its table is gone', async () => {
    expect((await admin.request('DELETE', `/api/data_sources/${source}/files/orders_2`)).status).toBe(204)
    expect((await run(admin, 'select * from orders_2')).error).toMatch(/orders_2 does not exist/)
    expect((await admin.request('DELETE', `/api/data_sources/${source}/files/orders_2`)).status).toBe(404)
  })

  it('refuses a file that is not what its name says, or of a kind it cannot read, and keeps nothing of it', async () => {
    const notParquet = await upload(admin, `/api/data_sources/${source}/files`, [['fake.parquet', 'id,name\n1,x\n']])
    expect(notParquet.status).toBe(400)
    expect(await notParquet.json()).toEqual({ message: 'fake.parquet is not a Parquet file, as its name says.' })
    const notExcel = await upload(admin, `/api/data_sources/${source}/files`, [['fake.xlsx', 'PK\x03\x04 not a workbook']])
    expect(notExcel.status).toBe(400)
    expect((await notExcel.json()).message).toMatch(/^fake\.xlsx could not be read as XLSX/)
    const binary = await upload(admin, `/api/data_sources/${source}/files`, [['image.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])]])
    expect(await binary.json()).toEqual({ message: 'image.csv is not a CSV text file, as its name says.' })
    const unknown = await upload(admin, `/api/data_sources/${source}/files`, [['notes.docx', 'hello']])
    expect(await unknown.json()).toEqual({ message: 'Files sources read CSV, TSV, Excel (.xlsx), Parquet and JSON (or JSON lines) files.' })
    const listed = await (await admin.get(`/api/data_sources/${source}/files`)).json()
    expect(listed.map((f: { name: string }) => f.name)).not.toContain('fake.parquet')
  })

  it('refuses a file larger than SIGHTLINE_MAX_UPLOAD_BYTES with 413, before keeping any of it', async () => {
    const res = await upload(admin, `/api/data_sources/${source}/files`, [['huge.csv', 'x\n' + '1\n'.repeat(150_000)]])
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ message: 'The file is too large (at most 200,000 bytes).' })
  })

  it('lets only admins see, add and remove files; strangers are asked to sign in', async () => {
    expect((await upload(member, `/api/data_sources/${source}/files`, [['mine.csv', 'a\n1\n']])).status).toBe(403)
    expect((await member.get(`/api/data_sources/${source}/files`)).status).toBe(403)
    expect((await member.request('DELETE', `/api/data_sources/${source}/files/orders`)).status).toBe(403)
    expect((await upload(new Client(t.app), `/api/data_sources/${source}/files`, [['mine.csv', 'a\n1\n']])).status).toBe(401)
    expect(await rowsOf(member, 'select count(*) as n from orders')).toEqual([{ n: 1 }])
  })

  it('reads the files at the URLs an admin lists, and asks again with their ETag when the schema is refreshed', async () => {
    const asked: (string | undefined)[] = []
    const server = http.createServer((req, res) => {
      asked.push(req.headers['if-none-match'])
      if (req.headers['if-none-match'] === '"v1"') return res.writeHead(304).end()
      res.writeHead(200, { 'content-type': 'text/csv', etag: '"v1"' }).end('region,target\nnorth,5\nsouth,7\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/Targets.csv`
      const created = await (await admin.post('/api/data_sources', { name: 'Targets', type: 'files', options: { urls: url } })).json()
      expect(await rowsOf(admin, 'select sum(target) as total from targets', created.id)).toEqual([{ total: 12 }])
      const refresh = await (await admin.get(`/api/data_sources/${created.id}/schema?refresh=true`)).json()
      await expect.poll(async () => (await (await admin.get(`/api/jobs/${refresh.job.id}`)).json()).job.status).toBe(3)
      expect(asked).toEqual([undefined, '"v1"'])
    } finally {
      server.close()
    }
  })
})

describe("a Files source's page", () => {
  it('lists the files with their tables, and uploads and deletes through plain forms', async () => {
    const page = await (await admin.get(`/data_sources/${source}`)).text()
    expect(page).toContain('customers_2024')
    const origin = { origin: 'http://localhost' }
    const added = await upload(admin, `/data_sources/${source}/files`, [['Regions.csv', 'region\nnorth\n']], origin)
    expect(added.status).toBe(303)
    expect(added.headers.get('location')).toBe(`/data_sources/${source}#files`)
    expect(await (await admin.get(`/data_sources/${source}`)).text()).toContain('<code>regions</code>')
    const refused = await upload(admin, `/data_sources/${source}/files`, [['bad.parquet', 'text']], origin)
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('bad.parquet is not a Parquet file, as its name says.')
    const removed = await admin.request('POST', `/data_sources/${source}/files/regions/delete`, { form: {}, headers: origin })
    expect(removed.status).toBe(303)
    expect(await (await admin.get(`/data_sources/${source}`)).text()).not.toContain('<code>regions</code>')
  })
})
