import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { athenaRunner, dataSourceTypes, forgetRoleSessions, setRetryPauses, setSourceResolve } from '../../src/runners/index.ts'
import type { ColumnType } from '../../src/runners/index.ts'
import { expectCancelReachesEngine, runnerContract } from './contract.ts'
import { fakeAthena } from './fakes/athena.ts'
import { fakeSts } from './fakes/sts.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* Athena and Glue against their JSON APIs faked from the references, Signature Version 4 checked (fakes/athena.ts). */
const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' }
const ROLE = 'arn:aws:iam::123456789012:role/analytics-read'
const sts = fakeSts({ region: 'eu-west-1', ...keys, roles: [{ arn: ROLE, externalId: 'sightline-7f3a' }] })
/** Plain tables Glue lists beside `orders` and `a_link`: a few, and 100,000 only for the test that pages through them. */
const FEW_TABLES = 3
const aws = fakeAthena({ region: 'eu-west-1', ...keys, tables: FEW_TABLES, temporary: sts.issued })
const server = setupServer(...aws.handlers, sts.handler)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  setSourceResolve(async () => [{ address: '198.51.100.80', family: 4 }])
  setRetryPauses([1, 1, 1])
})
afterEach(() => {
  forgetRoleSessions()
  sts.calls.length = 0
  aws.signers.length = 0
  sts.lifetime(3_600_000)
  server.resetHandlers()
  aws.busyFor(0)
  aws.expire(false)
  aws.tables(FEW_TABLES)
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
    aws.tables(100_000)
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

describe('Athena with an IAM role to assume', () => {
  const withRole = () => ({ ...config(), iam_role: ROLE, external_id: 'sightline-7f3a' })
  const as = { email: 'ana@example.com', name: 'Ana' }

  it('runs with the role\'s temporary keys and session token, in a session named after the executing user, asking STS once', async () => {
    expect((await collect(await athenaRunner.run(withRole(), 'SELECT 1', { ...opts(), user: as }))).rows).toEqual([[1]])
    expect((await collect(await athenaRunner.run(withRole(), 'SELECT 1', { ...opts(), user: as }))).rows).toEqual([[1]])
    expect(sts.calls).toEqual([{ Action: 'AssumeRole', Version: '2011-06-15', RoleArn: ROLE, RoleSessionName: 'ana@example.com', DurationSeconds: '3600', ExternalId: 'sightline-7f3a' }])
    const athenaCalls = aws.signers.filter((s) => s.service === 'athena')
    expect(athenaCalls.length).toBeGreaterThan(4)
    const issued = athenaCalls.map((s) => [s.accessKeyId, s.sessionToken === sts.issued(s.accessKeyId)?.sessionToken])
    expect(new Set(issued.map(([id]) => id))).toEqual(new Set(['ASIAIOSFODNN7EX0001']))
    expect(issued.every(([, tokenMatches]) => tokenMatches)).toBe(true)
    // Glue's schema is read by the role too, for nobody in particular
    const glue: (string | null)[][] = []
    server.use(http.post('https://glue.eu-west-1.amazonaws.com/', ({ request }) => {
      glue.push([/Credential=(\w+)\//.exec(request.headers.get('authorization') ?? '')?.[1] ?? null, request.headers.get('x-amz-security-token')])
      return HttpResponse.json({ DatabaseList: [] })
    }))
    expect(await athenaRunner.schema(withRole(), new AbortController().signal)).toEqual([])
    expect(sts.calls.map((c) => c.RoleSessionName)).toEqual(['ana@example.com', 'sightline'])
    expect(glue).toEqual([['ASIAIOSFODNN7EX0002', sts.issued('ASIAIOSFODNN7EX0002')!.sessionToken]])
  })

  it('asks STS again once the kept credentials are about to expire', async () => {
    sts.lifetime(2 * 60_000)
    await collect(await athenaRunner.run(withRole(), 'SELECT 1', opts()))
    await collect(await athenaRunner.run(withRole(), 'SELECT 1', opts()))
    expect(sts.calls.length).toBe(2)
  })

  it('says STS refused the role, with AWS\'s reason, and starts nothing in Athena', async () => {
    await expectRunnerError(athenaRunner.run({ ...withRole(), external_id: 'guessed' }, 'SELECT 1', { ...opts(), user: as }), 'connection',
      `AWS STS refused to assume the role ${ROLE} (AccessDenied): User: arn:aws:iam::123456789012:user/sightline is not authorized to perform: sts:AssumeRole on resource: ${ROLE}.`)
    await expectRunnerError(athenaRunner.test({ ...withRole(), iam_role: 'arn:aws:iam::123456789012:role/other' }, new AbortController().signal), 'connection', /AWS STS refused to assume the role .*role\/other \(AccessDenied\)/)
    await expectRunnerError(athenaRunner.run({ ...withRole(), aws_secret_key: 'wrong' }, 'SELECT 1', opts()), 'connection', /AWS STS refused to assume the role .* \(SignatureDoesNotMatch\)/)
    expect(aws.signers).toEqual([])
  })

  it('keeps the secret key sealed; the role and external ID are plain options', () => {
    const KEY = 'k'.repeat(32)
    const stored = { type: 'athena', ...dataSourceTypes.toStore(KEY, 'athena', withRole()) }
    expect(stored.options).toMatchObject({ iam_role: ROLE, external_id: 'sightline-7f3a', aws_access_key: keys.accessKeyId })
    expect(stored.options).not.toHaveProperty('aws_secret_key')
    expect(stored.secrets).not.toContain(keys.secretAccessKey)
    expect(dataSourceTypes.toShow(KEY, stored)).toMatchObject({ iam_role: ROLE, aws_secret_key: '--------' })
    expect(dataSourceTypes.opened(KEY, stored)).toMatchObject({ iam_role: ROLE, aws_secret_key: keys.secretAccessKey })
  })
})
