import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sqliteRunner as runner } from '../../src/runners/index.ts'
import { cancelWhileStreaming, collect, expectRunnerError, opts, waitUntil, cellBatches, WAIT_MS } from './support.ts'

let dir: string
let dbpath: string
let db: Database.Database
let config: { dbpath: string }

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-sqlite-'))
  dbpath = path.join(dir, 'test.db')
  db = new Database(dbpath)
  db.exec(`
    create table kinds (i integer, big integer, r real, d decimal(10,2), b boolean, day date, at datetime, s text, blob blob, empty text);
    insert into kinds values (1, 9007199254740993, 2.5, 12.34, 1, '2024-02-29', '2024-01-02 03:04:05', 'héllo ✓ 日本 🎉', x'0102', null);
    create table numbers (n integer primary key, label text);
    with recursive c(n) as (select 1 union all select n + 1 from c where n < 200000) insert into numbers select n, hex(randomblob(8)) from c;
    create view big as select n from numbers where n > 100;`)
  config = { dbpath }
})
afterAll(() => {
  db?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const signal = () => new AbortController().signal
/** Whether another connection can write right now (a running reader holds a lock that blocks it). */
const canWrite = async () => {
  try {
    const other = new Database(dbpath, { timeout: 0 })
    try {
      other.prepare('insert into kinds (i) values (99)').run()
      other.prepare('delete from kinds where i = 99').run()
      return true
    } finally {
      other.close()
    }
  } catch {
    return false
  }
}
const infinite = 'with recursive c(n) as (select 1 union all select n + 1 from c) select n from c, kinds'

describe('SQLite runner', () => {
  it('test() passes, and fails clearly on a missing file or a file that is not a database', async () => {
    await runner.test(config, signal())
    await expectRunnerError(runner.test({ dbpath: path.join(dir, 'missing.db') }, signal()), 'connection', /Could not open the SQLite database .*missing\.db/)
    fs.writeFileSync(path.join(dir, 'junk.db'), 'this is not a database, just some text that is long enough'.repeat(20))
    await expectRunnerError(runner.test({ dbpath: path.join(dir, 'junk.db') }, signal()), 'connection', /not a database/)
  })

  it('returns columns, types and values: nulls, dates, timestamps, decimals, booleans, unicode, duplicates', async () => {
    const stream = await runner.run(config, "select *, i as i, 1.5 * 3 as expr, 'x' || s as concat from kinds", opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['i', 'integer'], ['big', 'integer'], ['r', 'float'], ['d', 'float'], ['b', 'boolean'], ['day', 'date'], ['at', 'datetime'],
      ['s', 'string'], ['blob', 'string'], ['empty', 'string'], ['i1', 'integer'], ['expr', 'float'], ['concat', 'string'],
    ])
    const { rows } = await collect(stream)
    expect(rows).toEqual([[1, '9007199254740993', 2.5, 12.34, 1, '2024-02-29', '2024-01-02 03:04:05', 'héllo ✓ 日本 🎉', '0x0102', null, 1, 4.5, 'xhéllo ✓ 日本 🎉']])
  })

  it('runs several statements (writes allowed) and answers with the last result set', async () => {
    const stream = await runner.run(config, `
      create temp table pets (name text, legs int);
      insert into pets values ('cat', 4), ('bird', 2);
      select name, legs from pets order by legs; -- done`, opts())
    expect((await collect(stream)).rows).toEqual([['bird', 2], ['cat', 4]])
  })

  it('reports the engine message for bad SQL, and "no data" for statements without a result', async () => {
    await expectRunnerError(runner.run(config, 'select * from no_such_table', opts()), 'query', 'no such table: no_such_table')
    await expectRunnerError(runner.run(config, 'create temp table t (a int)', opts()), 'query', 'Query completed but it returned no data.')
  })

  it('streams a large result in batches', async () => {
    const started = performance.now()
    const { rows, batches } = await collect(await runner.run(config, 'select n, label from numbers order by n', opts()))
    expect(rows.length).toBe(200_000)
    expect(rows.at(-1)![0]).toBe(200_000)
    expect(batches).toBe(40)
    console.info(`sqlite: 200k rows in ${batches} batches, ${Math.round(performance.now() - started)} ms`)
  })

  it('stopping early ends the statement and releases the database', async () => {
    const stream = await runner.run(config, infinite, opts())
    expect(await canWrite()).toBe(false) // the reader holds its lock while rows are pending
    for await (const batch of cellBatches(stream)) {
      expect(batch.length).toBe(5000)
      break
    }
    await waitUntil(canWrite)
  })

  it('stops the statement at the time limit', async () => {
    const ms = await expectRunnerError(runner.run(config, infinite, opts(300)).then(collect), 'timeout', /time limit of 300 ms/)
    expect(ms).toBeLessThan(WAIT_MS) // the statement never ends by itself
    await waitUntil(canWrite)
  })

  it('cancelling stops the statement', async () => {
    const controller = new AbortController()
    const stream = await runner.run(config, infinite, { signal: controller.signal, timeoutMs: 600_000 })
    await cancelWhileStreaming(stream, controller) // the statement never ends by itself
    await waitUntil(canWrite)
  })

  it('schema() lists tables and views with their columns', async () => {
    const schema = await runner.schema(config, signal())
    expect(schema.map((t) => t.name)).toEqual(['big', 'kinds', 'numbers'])
    expect(schema.find((t) => t.name === 'numbers')!.columns).toEqual([{ name: 'n', type: 'INTEGER' }, { name: 'label', type: 'TEXT' }])
    expect(schema.find((t) => t.name === 'big')!.columns.map((c) => c.name)).toEqual(['n'])
  })
})
