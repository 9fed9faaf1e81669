import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeWarmPostgresConnections, postgresRunner as runner, warmPostgresConnections } from '../../src/runners/index.ts'
import type { Cell } from '../../src/runners/index.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { collect, opts, postgresConfig, waitUntil } from './support.ts'
import { seededRandom } from '../../src/visualizations/sample.ts'

/**
 * A single statement is read through COPY and written as JSON byte by byte (copy-text.ts); several statements go
 * through the driver's values. What is stored must not depend on the way: every type, every awkward value.
 */
let db: TestDatabase
let config: Record<string, unknown>

const PALETTE = ['a', 'Z', '0', ' ', '\t', '\n', '\r', '\b', '\f', '\v', '\x01', '\x1f', '"', "'", '\\', ',', '{', '}',
  'é', '日本', '🎉', '\u2028', '\x7f', 'N', '\\N', 'null']

const TEXTS = ['', '\\N', 'NULL', 'a\tb\nc\rd', 'back\\slash', '"quoted"', '{"not": "json"}', 'ünïcødé ✓', '🎉'.repeat(50)]

beforeAll(async () => {
  db = await freshDatabase()
  const u = new URL(db.url)
  config = postgresConfig(db.url)
  const next = seededRandom(20261123)
  const texts = [...TEXTS, ...Array.from({ length: 600 }, () =>
    Array.from({ length: Math.floor(next() * 12) }, () => PALETTE[Math.floor(next() * PALETTE.length)]).join(''))]
  const numbers = Array.from({ length: texts.length }, () => (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20))
  const units = Array.from({ length: texts.length }, () => next() * 2 - 1)
  await db.sql`alter database ${db.sql(u.pathname.slice(1))} set timezone = 'Asia/Kolkata'`
  await db.sql`
    create table kinds as
    select row_number() over () as id, t, f,
           (g * 32000)::int2 as i2, (g * 2e9)::int4 as i4, (g * 9e18)::int8 as i8, f::float4 as f4, f::numeric as n,
           f > 0 as b, ('2024-02-29'::date + (g * 100000)::int) as d,
           timestamp '2024-02-29 12:34:56.789' + g * interval '100000 days' as ts,
           timestamptz '2024-02-29 12:34:56+00' + g * interval '100000 hours' as tz,
           jsonb_build_object('t', t, 'f', f, 'list', jsonb_build_array(t, f, null, true)) as jb,
           json_build_object('t', t) as js,
           array[t, null, 'x,y', ''] as ta, array[(g * 1000)::int, null] as ia, array[f] as fa,
           array[date '2024-01-01', null] as da, array[timestamp '2024-01-01 10:00:00'] as tsa,
           convert_to(t, 'UTF8') as bin, md5(t)::uuid as u, g * interval '1000000 seconds' as iv, t::varchar(5) as vc,
           t::char(3) as ch, t::name as nm, (abs(g) * 4e9)::int8::oid as o, time '10:00' + g * interval '600 minutes' as tm,
           '192.168.0.1'::inet as ip, point(f, -f) as pt, (g * 1e6)::numeric::money as m
      from unnest(${texts}::text[], ${numbers}::float8[], ${units}::float8[]) as v(t, f, g)`
  await db.sql`
    insert into kinds (id, f, f4, n, i8, d, ts, tz, jb, ta)
    values (10001, 'NaN', 'Infinity', 'NaN', 9007199254740993, 'infinity', '-infinity', 'infinity', '"just text"', '{}'),
           (10002, '-Infinity', '-0', 'Infinity', -9223372036854775808, '4713-01-01 BC', '2000-01-01 00:00:00 BC', '10000-01-01', 'null', null),
           (10003, -0.0, 1e-7, '-Infinity', 123456789012345, '2024-01-01', '2024-01-01 00:00:00.5', '2024-01-01 00:00:00.123456+00', '1e400', '{"{}"}'),
           (10004, 1e21, 3.4e38, 123456789012345678901234.0123456789, -999999999999999, null, null, null, '[]', '{NULL}'),
           (10005, 1e15, 1e-40, 0.0000001, 9007199254740991, '0001-01-01', '1999-12-31 23:59:59.999999', '1970-01-01 00:00:00+00', '{"a":{"b":[1.50,2e3]}}', '{"a\\"b","c\\\\d"}')`
})
afterAll(async () => {
  await closeWarmPostgresConnections()
  await db?.drop()
})

/** Rows as they are stored: through JSON (NaN becomes null, -0 becomes 0). */
const stored = (rows: Cell[][]) => JSON.parse(JSON.stringify(rows)) as Cell[][]

describe('PostgreSQL results through COPY', () => {
  it('store the same values as the driver does, for every type and awkward value', async () => {
    await closeWarmPostgresConnections() // new connections, in the database's time zone
    const select = 'select * from kinds order by id'
    const viaCopy = await runner.run(config, select, opts())
    const kinds: string[] = []
    const copyRows: Cell[][] = []
    for await (const batch of viaCopy.batches) {
      kinds.push(Array.isArray(batch) ? 'values' : 'json')
      copyRows.push(...(await collect({ ...viaCopy, batches: [batch] as never })).rows)
    }
    expect(new Set(kinds)).toEqual(new Set(['json'])) // the COPY way was taken
    const viaDriver = await runner.run(config, `select 1; ${select}`, opts())
    const driverRows = (await collect(viaDriver)).rows
    expect(viaCopy.columns).toEqual(viaDriver.columns)
    expect(copyRows.length).toBe(614)
    for (let i = 0; i < driverRows.length; i++) expect(copyRows[i], `row ${i + 1}`).toEqual(stored(driverRows)[i])
    // a few by eye: the offset keeps its minutes, odd text survives, unsafe integers stay exact
    const special = copyRows.slice(-5)
    expect(special.map((r) => r[viaCopy.columns.findIndex((c) => c.name === 'i8')])).toEqual(
      ['9007199254740993', '-9223372036854775808', 123456789012345, -999999999999999, 9007199254740991])
    expect(copyRows[3][1]).toBe('a\tb\nc\rd')
    expect(String(copyRows[0][viaCopy.columns.findIndex((c) => c.name === 'tz')])).toMatch(/\+05:30$/)
  })

  it('keep every type and awkward value as it was when the engine cuts long values (none here is long)', async () => {
    const select = 'select * from kinds order by id'
    const whole = (await collect(await runner.run(config, select, opts()))).rows
    const capped = await runner.run(config, select, { ...opts(), maxCellBytes: 1024 * 1024 })
    expect((await collect(capped)).rows).toEqual(whole)
    expect(capped.cuts).toEqual({ cells: false, rows: false })
  })

  it('cut values longer than the cap in the engine, whatever their type, to the byte in the transcoder', async () => {
    const select = "select repeat(t, 40) as t, ta, jb, bin, ch from kinds where t = repeat('🎉', 50)"
    const stream = await runner.run(config, select, { ...opts(), maxCellBytes: 64 })
    const [row] = (await collect(stream)).rows
    expect(row[0]).toBe(`${'🎉'.repeat(15)}…`) // 60 bytes of whole characters, then the mark
    expect(row[1]).toBe(`{${'🎉'.repeat(15)}…`) // an array: its text, cut
    expect(String(row[2])).toMatch(/^\{"f": .*…$/) // json: its text, cut
    expect(Buffer.byteLength(String(row[2]))).toBeLessThanOrEqual(64)
    expect(row[3]).toBe(`\\x${'f09f8e89'.repeat(7)}f09…`)
    expect(row[4]).toBe('🎉🎉🎉') // char(3) is short
    expect(stream.cuts).toEqual({ cells: true, rows: false })
  })

  it('fall back to the simple protocol for statements COPY refuses, running them once', async () => {
    await db.sql`create sequence once_only`
    const show = await runner.run(config, 'show timezone', opts())
    expect((await collect(show)).rows).toEqual([['Asia/Kolkata']])
    const explain = await runner.run(config, 'explain select 1', opts())
    expect((await collect(explain)).rows[0][0]).toMatch(/^Result/)
    const returning = await runner.run(config, "insert into kinds (id, t) values (20000, 'new') returning id, nextval('once_only') as n;", opts())
    expect((await collect(returning)).rows).toEqual([[20000, 1]])
    expect(Number((await db.sql`select last_value from once_only`)[0].last_value)).toBe(1)
    const cut = await runner.run(config, "insert into kinds (id, t) values (20001, 'new') returning id, t, nextval('once_only') as n;", { ...opts(), maxCellBytes: 64 })
    expect((await collect(cut)).rows).toEqual([[20001, 'new', 2]])
    expect(Number((await db.sql`select last_value from once_only`)[0].last_value)).toBe(2)
    expect((await collect(await runner.run(config, 'show timezone', { ...opts(), maxCellBytes: 64 }))).rows).toEqual([['Asia/Kolkata']])
  })

  it('leave their connection ready for the next run, however the stream ended', async () => {
    // large rows fill the driver's stream, so COPY's end often arrives with data while its socket is paused
    const wide = "select i, repeat(md5(i::text), 3000) as wide from generate_series(1, 40) i"
    await closeWarmPostgresConnections() // none left from earlier tests: what comes back below is this test's
    for (let run = 0; run < 4; run++) expect((await collect(await runner.run(config, wide, opts()))).rows).toHaveLength(40)
    // its reset after the run went through: the connection is back in the pool, ready for the next run (on a busy
    // machine a run may start while the previous reset is still on its way, and open a second one: both come back)
    await waitUntil(async () => warmPostgresConnections() >= 1)
    await closeWarmPostgresConnections()
  })

  it('keep a trailing comment from reaching past the statement', async () => {
    const stream = await runner.run(config, 'select 1 as one -- the end', opts())
    expect((await collect(stream)).rows).toEqual([[1]])
  })
})
