/**
 * Runners that cannot have the engine cut long values keep them from piling up: ClickHouse's rows are cut as they
 * stream (json-lines.ts), and MySQL's wide rows are handed over in small batches rather than 5,000 at a time. The
 * result writer cuts what is left (src/results/result-caps.test.ts).
 */
import http from 'node:http'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { capCell, cutText, clickhouseRunner, StringCutter, mysqlRunner } from '../../src/runners/index.ts'
import { collect, opts } from './support.ts'

const KB = 1024
const CAP = 64 * KB
const caps = { maxCellBytes: CAP, maxResultBytes: 1024 * KB }

/** Everything the cutter makes of `json`, written in pieces of `step` bytes. */
function cutInPieces(json: string, cap: number, step: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(json)
  const cutter = new StringCutter(cap)
  for (let i = 0; i < bytes.length; i += step) cutter.write(bytes.subarray(i, i + step))
  return { text: Buffer.from(cutter.take()).toString(), cut: cutter.cut }
}

describe('cutting strings as JSON streams', () => {
  const values = [
    'z'.repeat(5000), 'é'.repeat(3000), '🎉'.repeat(2000), `${'a'.repeat(95)}"quoted" and \\ and \n`.repeat(60),
    `${'b'.repeat(1022)}é`, 'c'.repeat(1024), 'd'.repeat(1025), '\u0001\u2028\ud83d\ude00'.repeat(300), 'short',
  ]
  for (const step of [1, 7, 4096]) {
    it(`cuts each string over the cap as the writer would, in pieces of ${step} bytes`, () => {
      const row = [1, ...values, { nested: ['x'.repeat(3000)] }, null, true]
      const { text, cut } = cutInPieces(JSON.stringify(row), 1024, step)
      const expected = row.map((v) => (typeof v === 'string' ? capCell(v, 1024) : v))
      expect(JSON.parse(text)).toEqual([...expected.slice(0, -3), { nested: [cutText('x'.repeat(3000), 1024)] }, null, true])
      expect(cut).toBe(true)
    })
  }

  it('copies JSON without long strings as it is', () => {
    const json = JSON.stringify([1, 'a\\"b', { c: [1.5, 'é'] }, 'x'.repeat(1024)])
    expect(cutInPieces(json, 1024, 3)).toEqual({ text: json, cut: false })
  })
})

describe('ClickHouse rows with long values', () => {
  let server: http.Server
  let url: string
  let answer: (res: http.ServerResponse) => Promise<void>
  const statements: string[] = []

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        statements.push(body)
        if (body.startsWith('KILL QUERY')) return void res.end()
        res.on('error', () => {})
        void answer(res).catch(() => res.destroy())
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((r) => server.close(r))
  })

  /** Writes the header lines and then each row's JSON in 16 KB pieces, as a server streams a long value. */
  const streaming = (rows: unknown[][]) => async (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('["n","v"]\n["UInt8","String"]\n')
    for (const row of rows) {
      const line = Buffer.from(`${JSON.stringify(row)}\n`)
      for (let i = 0; i < line.length; i += 16 * KB) {
        if (!res.write(line.subarray(i, i + 16 * KB))) await new Promise((r) => res.once('drain', r))
      }
    }
    res.end()
  }

  it('cuts a value over the cap while it streams, and says so on the stream', async () => {
    answer = streaming([[1, 'z'.repeat(4 * 1024 * KB)], [2, 'short'], [3, `"${'é'.repeat(CAP)}`]])
    const stream = await clickhouseRunner.run({ url, dbname: 'default' }, 'select wide', { ...opts(), ...caps })
    expect((await collect(stream)).rows).toEqual([[1, cutText('z'.repeat(CAP + 1), CAP)], [2, 'short'], [3, cutText(`"${'é'.repeat(CAP)}`, CAP)]])
    expect(stream.cuts).toEqual({ cells: true, rows: false })
  })

  it('ends the rows before one larger than a whole result, and stops the query', async () => {
    statements.length = 0
    const many = Array.from({ length: 120 * KB }, (_, i) => `v${i}`) // 1.2 MB of short strings: nothing to cut
    answer = streaming([[1, 'first'], [2, many as unknown as string], [3, 'never read']])
    const stream = await clickhouseRunner.run({ url, dbname: 'default' }, 'select many', { ...opts(), ...caps })
    expect((await collect(stream)).rows).toEqual([[1, 'first']])
    expect(stream.cuts).toEqual({ cells: false, rows: true })
    expect(statements.some((s) => s.startsWith('KILL QUERY'))).toBe(true)
  })
})

describe('MySQL rows with long values', () => {
  const server = { host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.TEST_MYSQL_PORT ?? 3306), user: 'root', password: '' }
  const config = { host: server.host, port: server.port, user: server.user, passwd: server.password }

  it('hands wide rows over in batches of a few megabytes, not 5,000 rows at a time', async () => {
    const admin = await mysql.createConnection(server)
    await admin.end() // the server answers: the runner's test below is meaningful
    const stream = await mysqlRunner.run(config, "select n, repeat('z', 1048576) as w from (select 1 as n union all select 2 union all select 3 union all select 4 union all select 5 union all select 6 union all select 7 union all select 8 union all select 9 union all select 10) t", { ...opts(), ...caps })
    const { rows, batches } = await collect(stream)
    expect(rows).toHaveLength(10)
    expect(rows[9][1]).toHaveLength(1048576)
    expect(batches).toBeGreaterThanOrEqual(3) // about 4 MB each
  })
})
