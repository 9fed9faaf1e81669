import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { athenaRunner, setRetryPauses, setSourceResolve } from '../../src/runners/index.ts'
import type { ColumnType } from '../../src/runners/index.ts'
import { expectCancelReachesEngine, runnerContract } from './contract.ts'
import { fakeAthena } from './fakes/athena.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* Athena and Glue against their JSON APIs faked from the references, Signature Version 4 checked (fakes/athena.ts). */
const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }
const aws = fakeAthena({ region: 'eu-west-1', ...keys, tables: 100_000 })
const server = setupServer(...aws.handlers)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  setSourceResolve(async () => [{ address: '198.51.100.80', family: 4 }])
  setRetryPauses([1, 1, 1])
})
afterEach(() => {
  server.resetHandlers()
  aws.busyFor(0)
  aws.expire(false)
})
afterAll(() => {
  server.close()
  setSourceResolve(undefined)
  setRetryPauses(undefined)
})

const config = () => ({ region: 'eu-west-1', aws_access_key: keys.accessKeyId, aws_secret_key: keys.secretAccessKey, s3_staging_dir: 's3://results/', schema: 'sales' })
const LARGE = 'SELECT n, label FROM numbers LIMIT 100000'

runnerContract('Athena', () => ({
  runner: athenaRunner, config, large: LARGE, stopWithinMs: 1_000,
  simple: {
    text: 'SELECT id, name, price, active, placed, day FROM orders',
    columns: [['id', 'integer'], ['name', 'string'], ['price', 'float'], ['active', 'boolean'], ['placed', 'datetime'], ['day', 'date']] as [string, ColumnType | null][],
    rows: [[1, 'first', 12.5, true, '2024-05-01T12:00:00.000', '2024-05-01'], [2, null, null, false, null, null]],
  },
  table: { name: 'sales.orders', columns: ['id', 'name', 'dt'] },
  bad: { text: 'SELECT nope FROM orders', message: "COLUMN_NOT_FOUND: line 1:8: Column 'nope' cannot be resolved" },
}))

describe('Athena runner', () => {
  it('starts the query, waits for it, and reads its pages by NextToken, as recorded', async () => {
    const recorded = replay('athena/conversation.json', 'https://athena.eu-west-1.amazonaws.com')
    server.use(recorded.handler)
    const stream = await athenaRunner.run({ ...config(), schema: 'sampledb' }, 'SELECT elb_name, request_processing_time FROM elb_logs LIMIT 3', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['elb_name', 'string'], ['request_processing_time', 'float']])
    expect((await collect(stream)).rows).toEqual([['elb_demo_004', 0.00008], ['elb_demo_002', 0.000045], ['elb_demo_008', null]])
    expect(matchesRecording(recorded.seen, recorded.exchanges)).toEqual(recorded.exchanges.map((x) => x.request))
    expect(recorded.done()).toBe(true)
    expect(recorded.seen.every((s) => s.headers.authorization.startsWith('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/'))).toBe(true)
  })

  it('a cancel while the query runs reaches Athena as StopQueryExecution within a second', async () => {
    const text = 'SELECT slow FROM events'
    const ms = await expectCancelReachesEngine((s) => athenaRunner.run(config(), text, { signal: s, timeoutMs: 600_000 }), async () => aws.running(text), 1_000)
    expect(ms).toBeLessThan(1_000)
    expect(aws.stopped(text)).toBe(true)
  })

  it('lists 100,000 Glue tables over their pages, skipping tables without storage', async () => {
    const tables = await athenaRunner.schema(config(), new AbortController().signal)
    expect(tables.length).toBe(100_001)
    expect(tables.some((t) => t.name === 'sales.a_link')).toBe(false)
  })

  it('asks again when throttled; an expired token and a wrong secret are clear errors', async () => {
    aws.busyFor(2)
    expect((await collect(await athenaRunner.run(config(), 'SELECT 1', opts()))).rows).toEqual([[1]])
    aws.expire(true)
    await expectRunnerError(athenaRunner.run(config(), 'SELECT 1', opts()), 'connection', /AWS refused the credentials \(ExpiredTokenException\): The security token included in the request is expired/)
    aws.expire(false)
    await expectRunnerError(athenaRunner.test({ ...config(), aws_secret_key: 'wrong' }, new AbortController().signal), 'connection', /AWS refused the credentials \(InvalidSignatureException\)/)
    await expectRunnerError(athenaRunner.run({ ...config(), region: '' }, 'SELECT 1', opts()), 'connection', /needs an AWS region/)
  })
})
