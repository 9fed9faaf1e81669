import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeWarmPostgresConnections, postgresRunner as runner, warmPostgresConnections } from '../../src/runners/index.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { cancelWhileStreaming, collect, expectRunnerError, opts, silentServer, unansweredPort, waitUntil, cellBatches, postgresConfig, WAIT_MS } from './support.ts'
import { expectCancelReachesEngine } from './contract.ts'

let db: TestDatabase
let config: Record<string, unknown>

beforeAll(async () => {
  db = await freshDatabase()
  config = postgresConfig(db.url)
})
afterAll(async () => {
  await closeWarmPostgresConnections()
  await db?.drop()
})

const signal = () => new AbortController().signal
const sightlineSessions = async (like = '%') =>
  Number((await db.sql`select count(*)::int as n from pg_stat_activity
    where application_name = 'Sightline' and datname = current_database() and query like ${like}`)[0].n)

describe('PostgreSQL runner', () => {
  it('test() passes, and fails clearly on a wrong password, a closed port and an unreachable host', async () => {
    await runner.test(config, signal())
    await expectRunnerError(runner.test({ ...config, password: 'wrong' }, signal()), 'connection', /password authentication failed/)
    const refused = await expectRunnerError(runner.test({ ...config, port: 1 }, signal()), 'connection', /Could not connect to PostgreSQL at 127\.0\.0\.1:1: .*ECONNREFUSED/)
    expect(refused).toBeLessThan(WAIT_MS) // no retrying
    const dropped = await unansweredPort()
    try {
      const unreachable = await expectRunnerError(runner.test({ ...config, host: '127.0.0.1', port: dropped.port }, signal()), 'connection', `Could not connect to PostgreSQL at 127.0.0.1:${dropped.port}: the connection timed out.`)
      expect(unreachable).toBeLessThan(WAIT_MS) // the runner gives up by itself; the system would try for minutes
    } finally {
      await dropped.close()
    }
    const silent = await silentServer()
    try {
      const hung = await expectRunnerError(runner.test({ ...config, host: '127.0.0.1', port: silent.port }, signal()), 'connection', /Could not connect to PostgreSQL at 127\.0\.0\.1:\d+: the connection timed out\./)
      expect(hung).toBeLessThan(WAIT_MS) // a service that never answers would hang it forever
    } finally {
      await silent.close()
    }
    await expectRunnerError(runner.test({ ...config, dbname: 'no_such_db' }, signal()), 'connection', /database "no_such_db" does not exist/)
  })

  it('returns columns, types and values: nulls, dates, timestamps, decimals, booleans, unicode, json, duplicates', async () => {
    const stream = await runner.run(config, `
      select 1::int2 as a, 2::int4 as b, 9007199254740993::int8 as big, 42::int8 as small, 1.25::numeric as n,
             2.5::float8 as f, true as t, null::text as nothing, date '2024-02-29' as d,
             timestamp '2024-01-02 03:04:05.678' as ts, timestamptz '2024-01-02 03:04:05+00' as tz,
             'héllo ✓ 日本 🎉' as u, '{"x": [1, null]}'::jsonb as j, 'a'::text as a, array[1,2] as arr,
             interval '1 day' as iv, '\\x0102'::bytea as bin`, opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['a', 'integer'], ['b', 'integer'], ['big', 'integer'], ['small', 'integer'], ['n', 'float'], ['f', 'float'],
      ['t', 'boolean'], ['nothing', 'string'], ['d', 'date'], ['ts', 'datetime'], ['tz', 'datetime'], ['u', 'string'],
      ['j', 'string'], ['a1', 'string'], ['arr', 'string'], ['iv', 'string'], ['bin', 'string'],
    ])
    expect(stream.columns[13].friendly_name).toBe('a1')
    const { rows } = await collect(stream)
    expect(rows).toHaveLength(1)
    const [a, b, big, small, n, f, t, nothing, d, ts, tz, u, j, a2, arr, iv, bin] = rows[0]
    expect([a, b, big, small, n, f, t, nothing, d, ts]).toEqual([1, 2, '9007199254740993', 42, 1.25, 2.5, true, null, '2024-02-29', '2024-01-02T03:04:05.678'])
    expect(tz).toMatch(/^2024-01-02T\d\d:\d\d:05[+-]\d\d:\d\d$/)
    expect(Date.parse(tz as string)).toBe(Date.parse('2024-01-02T03:04:05Z'))
    expect([u, j, a2, arr, iv, bin]).toEqual(['héllo ✓ 日本 🎉', { x: [1, null] }, 'a', [1, 2], '1 day', '\\x0102'])
    expect(JSON.parse(JSON.stringify(rows))).toEqual(rows)
  })

  it('runs several statements and answers with the last result set; notices go to the log', async () => {
    const stream = await runner.run(config, `
      create temp table pets (name text, legs int);
      insert into pets values ('cat', 4), ('bird', 2);
      do $$ begin raise notice 'hello from plpgsql; really'; end $$;
      select name, legs from pets order by legs;  -- done
      set work_mem = '64MB'`, opts())
    expect(stream.columns.map((c) => c.name)).toEqual(['name', 'legs'])
    expect((await collect(stream)).rows).toEqual([['bird', 2], ['cat', 4]])
    expect(stream.log.join('\n')).toContain('hello from plpgsql; really')
  })

  it('reports the engine message for bad SQL, and "no data" for statements without a result', async () => {
    await expectRunnerError(runner.run(config, 'select * from no_such_table', opts()), 'query', 'relation "no_such_table" does not exist')
    await expectRunnerError(runner.run(config, 'select 1; select * from no_such_table', opts()), 'query', /no_such_table/)
    await expectRunnerError(runner.run(config, 'create temp table t (a int)', opts()), 'query', 'Query completed but it returned no data.')
  })

  it('streams a large result in batches', async () => {
    const started = performance.now()
    const stream = await runner.run(config, 'select i, md5(i::text) as h, now() as at from generate_series(1, 200000) i', opts())
    let rows = 0
    let batches = 0
    let last: unknown
    for await (const batch of cellBatches(stream)) {
      batches++
      rows += batch.length
      last = batch.at(-1)![0]
      // a COPY batch ends with the read that passes 5,000 rows
      expect(batch.length).toBeLessThanOrEqual(6000)
    }
    expect(rows).toBe(200_000)
    expect(last).toBe(200_000)
    expect(batches).toBeGreaterThanOrEqual(34)
    console.info(`pg: 200k rows in ${batches} batches, ${Math.round(performance.now() - started)} ms`)
  })

  it('stopping early closes the cursor and the connection', async () => {
    await closeWarmPostgresConnections()
    const stream = await runner.run(config, 'select i from generate_series(1, 300000) i', opts())
    for await (const batch of cellBatches(stream)) {
      expect(batch[0]).toEqual([1])
      break
    }
    await waitUntil(async () => (await sightlineSessions()) === 0)
  })

  it('asks the engine to stop at the time limit', async () => {
    const ms = await expectRunnerError(
      runner.run(config, 'select pg_sleep(300)', opts(300)).then(collect), 'timeout', /time limit of 300 ms/)
    expect(ms).toBeLessThan(WAIT_MS)
    await waitUntil(async () => (await sightlineSessions('%pg_sleep%')) === 0) // long before its 300 s are up
  })

  it('cancelling stops the statement in the engine', async () => {
    // running: the statement is active in a backend; it stops long before its 300 s are up
    await expectCancelReachesEngine((signal) => runner.run(config, 'select pg_sleep(300) as slept', { signal, timeoutMs: 600_000 }),
      async () => (await sightlineSessions('%pg_sleep(300)%')) === 1 && (await db.sql`select count(*)::int as n from pg_stat_activity
        where query like '%pg_sleep(300)%' and state = 'active' and pid <> pg_backend_pid()`)[0].n > 0)
  })

  it('cancelling while rows stream stops the stream', async () => {
    await closeWarmPostgresConnections()
    const controller = new AbortController()
    const stream = await runner.run(config, 'select i from generate_series(1, 300000) i', { signal: controller.signal, timeoutMs: 60_000 })
    await cancelWhileStreaming(stream, controller)
    await waitUntil(async () => (await sightlineSessions()) === 0)
  })

  it('commits what a statement writes, with rows, without rows, and where COPY refuses the statement', async () => {
    await db.sql`create table written (n int)`
    expect((await collect(await runner.run(config, 'insert into written values (1) returning n', opts()))).rows).toEqual([[1]])
    await expectRunnerError(runner.run(config, 'insert into written values (2)', opts()), 'query', 'Query completed but it returned no data.')
    // EXPLAIN ANALYZE runs its statement; COPY refuses it, and the transaction goes on without that refusal
    const plan = await collect(await runner.run(config, 'explain analyze insert into written values (3)', opts()))
    expect(plan.rows.length).toBeGreaterThan(0)
    expect(await db.sql`select n from written order by n`).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }])
    // a write that fails leaves nothing, and the connection is fine for the next run
    await expectRunnerError(runner.run(config, 'insert into written values (4); select 1 / 0', opts()), 'query', /division by zero/)
    expect(await db.sql`select count(*)::int as n from written`).toEqual([{ n: 3 }])
  })

  it('reuses a warm connection with nothing left of the previous run: settings, role, temp tables, transactions', async () => {
    await closeWarmPostgresConnections()
    const first = await collect(await runner.run(config,
      "set search_path to pg_catalog; create temp table scratch (x int); begin; select pg_backend_pid() as pid, pg_advisory_lock(42)", opts()))
    const pid = first.rows[0][0]
    await waitUntil(async () => warmPostgresConnections() === 1)
    const second = await collect(await runner.run(config,
      "select pg_backend_pid() as pid, current_setting('search_path') as path, to_regclass('pg_temp.scratch') as temp, " +
      "(select count(*) from pg_locks where locktype = 'advisory' and pid = pg_backend_pid())::int as locks, " +
      "current_setting('application_name') as app, current_setting('DateStyle') as style", opts()))
    expect(second.rows[0]).toEqual([pid, '"$user", public', null, 0, 'Sightline', 'ISO, YMD'])
  })

  it('schema() lists tables, views and materialized views with their columns', async () => {
    await db.sql.unsafe(`
      create table public.orders (id int primary key, total numeric, placed_at timestamptz);
      create schema sales;
      create table sales.regions (code text, "dotted.name" int);
      create view public.big_orders as select id, total from orders where total > 100;
      create materialized view sales.totals as select code, count(*) as n from sales.regions group by code;`)
    const schema = await runner.schema(config, signal())
    const byName = Object.fromEntries(schema.map((t) => [t.name, t.columns]))
    expect(byName.orders).toEqual([
      { name: 'id', type: 'integer' }, { name: 'total', type: 'numeric' }, { name: 'placed_at', type: 'timestamp with time zone' },
    ])
    expect(byName['sales.regions'].map((c) => c.name)).toEqual(['code', 'dotted.name'])
    expect(byName.big_orders.map((c) => c.name)).toEqual(['id', 'total'])
    expect(byName['sales.totals']).toEqual([{ name: 'code', type: 'text' }, { name: 'n', type: 'bigint' }])
    expect(schema.some((t) => t.name.startsWith('pg_catalog') || t.name.startsWith('information_schema'))).toBe(false)
  })

  it('refuses to start when already aborted', async () => {
    const c = new AbortController()
    c.abort()
    await expectRunnerError(runner.run(config, 'select 1', { signal: c.signal, timeoutMs: 1000 }), 'cancelled')
  })
})
