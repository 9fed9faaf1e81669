import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ColumnType } from '../../src/runners/index.ts'
import { prestoRunner, trinoRunner, setRetryPauses } from '../../src/runners/index.ts'
import { runnerContract } from './contract.ts'
import { fakeTrino } from './fakes/trino.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* Trino and Presto against a coordinator faked from the client protocol's documentation (fakes/trino.ts). */
const trino = fakeTrino({ origin: 'http://198.51.100.20:8080' })
const presto = fakeTrino({ origin: 'http://198.51.100.22:8080', prefix: 'X-Presto-' })
const guarded = fakeTrino({ origin: 'https://198.51.100.23:8443', password: 's3cret', tables: 100_000, pageRows: 10_000 })
const recorded = replay('trino/conversation.json', 'http://198.51.100.21:8080')
const server = setupServer(...trino.handlers, ...presto.handlers, ...guarded.handlers, recorded.handler)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  setRetryPauses([1, 1, 1])
})
afterEach(() => trino.busyFor(0))
afterAll(() => {
  server.close()
  setRetryPauses(undefined)
})

const config = { host: '198.51.100.20', port: 8080, username: 'analyst', catalog: 'tpch' }
const LARGE = 'SELECT n, label FROM tpch.sf1.numbers LIMIT 100000'
const signal = () => new AbortController().signal

const subject = (runner: typeof trinoRunner, fake: typeof trino, cfg: Record<string, unknown>, table: string) => () => ({
  runner, config: () => cfg, large: LARGE, running: async () => fake.running(LARGE), stopWithinMs: 1_000,
  simple: {
    text: 'SELECT id, name, price, total, active, placed, day FROM tpch.sf1.orders',
    columns: [['id', 'integer'], ['name', 'string'], ['price', 'float'], ['total', 'float'], ['active', 'boolean'], ['placed', 'datetime'], ['day', 'date']] as [string, ColumnType | null][],
    rows: [[1, 'first', 12.5, 1234.5, true, '2024-05-01T12:30:00.000', '2024-05-01'], [2, null, null, null, false, null, null]],
  },
  table: { name: table, columns: ['id', 'name'] },
  bad: { text: 'SELECT nope FROM tpch.sf1.orders', message: "line 1:8: Column 'nope' cannot be resolved" },
})
runnerContract('Trino', subject(trinoRunner, trino, config, 'tpch.sf1.orders'))
runnerContract('Presto', subject(prestoRunner, presto, { host: '198.51.100.22', catalog: 'tpch' }, 'sf1.orders'))

describe('Trino runner', () => {
  it('speaks the protocol as recorded: the session headers, then every nextUri until there is none', async () => {
    const stream = await trinoRunner.run({ host: '198.51.100.21', username: 'analyst', catalog: 'tpch', schema: 'tiny' },
      'SELECT nationkey, name, regionkey FROM nation ORDER BY nationkey LIMIT 3', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['nationkey', 'integer'], ['name', 'string'], ['regionkey', 'integer']])
    expect((await collect(stream)).rows).toEqual([[0, 'ALGERIA', 0], [1, 'ARGENTINA', 1], [2, 'BRAZIL', 1]])
    expect(matchesRecording(recorded.seen, recorded.exchanges)).toEqual(recorded.exchanges.map((x) => x.request))
    expect(recorded.done()).toBe(true)
  })

  it('sends the client tags, the source and the time limit as Trino session headers', async () => {
    await collect(await trinoRunner.run({ ...config, client_tags: ' etl, , nightly ', source: 'reports' }, 'SELECT 1', opts(90_000)))
    const post = trino.requests.filter((r) => r.method === 'POST').at(-1)!
    expect([post.headers['x-trino-user'], post.headers['x-trino-client-tags'], post.headers['x-trino-source'], post.headers['x-trino-session'], post.headers['x-trino-catalog']])
      .toEqual(['analyst', 'etl,nightly', 'reports', 'query_max_run_time=90s', 'tpch'])
    expect(post.headers.authorization).toBeUndefined()
  })

  it('impersonates the executing user by e-mail or name; a run that is nobody\'s goes as the source\'s username', async () => {
    const as = { email: 'ana@example.com', name: 'Ana Lima' }
    const sessionUser = async (fake: typeof trino, runner: typeof trinoRunner, cfg: Record<string, unknown>, user?: typeof as) => {
      await collect(await runner.run(cfg, 'SELECT 1', { ...opts(), user }))
      const post = fake.requests.filter((r) => r.method === 'POST').at(-1)!
      return [post.headers['x-trino-user'] ?? post.headers['x-presto-user'], post.headers.authorization]
    }
    expect(await sessionUser(trino, trinoRunner, { ...config, impersonation: true }, as)).toEqual(['ana@example.com', undefined])
    expect(await sessionUser(trino, trinoRunner, { ...config, impersonation: true, impersonationField: 'name' }, as)).toEqual(['Ana Lima', undefined])
    // a query's key or a deleted owner's schedule: nobody to impersonate
    expect(await sessionUser(trino, trinoRunner, { ...config, impersonation: true })).toEqual(['analyst', undefined])
    expect(await sessionUser(trino, trinoRunner, config, as)).toEqual(['analyst', undefined])
    expect(await sessionUser(presto, prestoRunner, { host: '198.51.100.22', catalog: 'tpch', impersonation: true }, as)).toEqual(['ana@example.com', undefined])
    // the password still signs in as the source's user, who the engine lets impersonate others
    const secured = { host: '198.51.100.23', port: 8443, protocol: 'https', username: 'analyst', password: 's3cret', catalog: 'tpch', impersonation: true }
    expect(await sessionUser(guarded, trinoRunner, secured, as)).toEqual(['ana@example.com', `Basic ${Buffer.from('analyst:s3cret').toString('base64')}`])
  })

  it('asks again while a gateway answers 503, then says the service is busy', async () => {
    trino.busyFor(2)
    expect((await collect(await trinoRunner.run(config, 'SELECT 1', opts()))).rows).toEqual([[1]])
    trino.busyFor(10)
    await expectRunnerError(trinoRunner.run(config, 'SELECT 1', opts()), 'connection', /Trino at http:\/\/198\.51\.100\.20:8080 is busy or unavailable: it answered 503 4 times/)
  })

  it('sends the password as Basic credentials, and says when they are refused', async () => {
    const secured = { host: '198.51.100.23', port: 8443, protocol: 'https', username: 'analyst', catalog: 'tpch' }
    await trinoRunner.test({ ...secured, password: 's3cret' }, signal())
    await expectRunnerError(trinoRunner.test({ ...secured, password: 'expired' }, signal()), 'connection', /Trino refused the credentials \(401\)/)
  })

  it('lists a catalog of 100,000 tables, page after page', async () => {
    const secured = { host: '198.51.100.23', port: 8443, protocol: 'https', username: 'analyst', password: 's3cret' }
    const tables = await trinoRunner.schema(secured, signal())
    expect(tables.length).toBe(100_002)
    expect(tables[0]).toEqual({ name: 'tpch.sf1.orders', columns: [{ name: 'id', type: 'bigint' }, { name: 'name', type: 'varchar(25)' }] })
    // without a configured catalog every catalog is listed: SHOW CATALOGS first
    expect(guarded.requests.filter((r) => r.method === 'POST').slice(-3).map((r) => r.body)).toEqual(['SHOW CATALOGS', expect.stringContaining('FROM "system"'), expect.stringContaining('FROM "tpch"')])
  })

  it('says what is missing or wrong in the configuration', async () => {
    await expectRunnerError(trinoRunner.run({ username: 'a' }, 'SELECT 1', opts()), 'connection', 'Trino needs a host.')
    await expectRunnerError(trinoRunner.run({ ...config, protocol: 'ftp' }, 'SELECT 1', opts()), 'connection', 'Trino\'s protocol must be http or https (got ftp).')
    await expectRunnerError(trinoRunner.run(config, '  ', opts()), 'query', 'Query is empty.')
  })
})
