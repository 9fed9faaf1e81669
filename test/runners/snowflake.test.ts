import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ColumnType } from '../../src/runners/index.ts'
import { snowflakeRunner, setSourceResolve, setRetryPauses } from '../../src/runners/index.ts'
import { expectCancelReachesEngine, runnerContract } from './contract.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { fakeSnowflake } from './fakes/snowflake.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* Snowflake against its SQL API v2 faked from the reference (fakes/snowflake.ts). */
const sf = fakeSnowflake({ origin: 'https://xy12345.snowflakecomputing.com', account: 'xy12345', user: 'analyst', tables: 100_000 })
const server = setupServer(...sf.handlers)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  setSourceResolve(async () => [{ address: '198.51.100.70', family: 4 }])
  setRetryPauses([1, 1, 1])
})
afterEach(() => {
  sf.busyFor(0)
  server.resetHandlers()
})
afterAll(() => {
  server.close()
  setSourceResolve(undefined)
  setRetryPauses(undefined)
})

const config = () => ({ account: 'xy12345', user: 'analyst', private_key_File: sf.privateKeyFile, warehouse: 'COMPUTE_WH', database: 'SHOP' })
const signal = () => new AbortController().signal

runnerContract('Snowflake', () => ({
  runner: snowflakeRunner, config, large: 'SELECT N, LABEL FROM NUMBERS LIMIT 100000', stopWithinMs: 1_000,
  simple: {
    text: 'SELECT ID, NAME, PRICE, ACTIVE, PLACED, DAY FROM SHOP.PUBLIC.ORDERS',
    columns: [['ID', 'integer'], ['NAME', 'string'], ['PRICE', 'float'], ['ACTIVE', 'boolean'], ['PLACED', 'datetime'], ['DAY', 'date']] as [string, ColumnType | null][],
    rows: [[1, 'first', 12.5, true, '2024-05-01T12:00:00.000Z', '2024-05-01'], [2, null, null, false, null, null]],
  },
  table: { name: 'PUBLIC.ORDERS', columns: ['ID', 'NAME'] },
  bad: { text: 'SELECT NOPE FROM SHOP.PUBLIC.ORDERS', message: "SQL compilation error:\nerror line 1 at position 7\ninvalid identifier 'NOPE'" },
}))

describe('Snowflake runner', () => {
  it('submits, polls, and reads the partitions, as recorded', async () => {
    const recorded = replay('snowflake/conversation.json', 'https://xy12345.snowflakecomputing.com')
    server.use(recorded.handler)
    const stream = await snowflakeRunner.run({ ...config(), database: 'SNOWFLAKE_SAMPLE_DATA' }, 'SELECT C_NAME, C_ACCTBAL FROM CUSTOMER ORDER BY C_CUSTKEY LIMIT 3', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['C_NAME', 'string'], ['C_ACCTBAL', 'float']])
    expect((await collect(stream)).rows).toEqual([['Customer#000000001', 711.56], ['Customer#000000002', 121.65], ['Customer#000000003', 7498.12]])
    const requestId = /requestId=([\w-]+)/.exec(recorded.seen[0].path)![1]
    const seen = recorded.seen.map((s) => ({ ...s, path: s.path.replaceAll(requestId, 'REQUESTID') }))
    expect(matchesRecording(seen, recorded.exchanges)).toEqual(recorded.exchanges.map((x) => x.request))
    expect(recorded.done()).toBe(true)
  })

  it('a cancel while the statement runs reaches Snowflake within a second', async () => {
    const text = 'SELECT SLOW FROM EVENTS'
    const ms = await expectCancelReachesEngine((s) => snowflakeRunner.run(config(), text, { signal: s, timeoutMs: 600_000 }), async () => sf.running(text), 1_000)
    expect(ms).toBeLessThan(1_000)
    expect(sf.cancelled(text)).toBe(true)
  })

  it('reads 100,000 columns of the schema over many partitions, INFORMATION_SCHEMA left out', async () => {
    const tables = await snowflakeRunner.schema(config(), signal())
    expect(tables.length).toBe(100_001)
    expect(tables.some((t) => t.name.startsWith('INFORMATION_SCHEMA.'))).toBe(false)
  })

  it('asks again on 429, then says it is busy; a key Snowflake does not know, or only a password, is a clear error', async () => {
    sf.busyFor(2)
    expect((await collect(await snowflakeRunner.run(config(), 'SELECT 1', opts()))).rows).toEqual([[1]])
    sf.busyFor(10)
    await expectRunnerError(snowflakeRunner.run(config(), 'SELECT 1', opts()), 'connection', /Snowflake at https:\/\/xy12345\.snowflakecomputing\.com is busy or unavailable: it answered 429 4 times/)
    sf.busyFor(0)
    const other = (await import('node:crypto')).generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    await expectRunnerError(snowflakeRunner.test({ ...config(), private_key_File: other }, signal()), 'connection', /Snowflake refused the credentials \(401\): JWT token is invalid\./)
    await expectRunnerError(snowflakeRunner.test({ ...config(), private_key_File: '', password: 'pw' }, signal()), 'connection', /signs in with a key pair only/)
  })
})
