import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { bigqueryRunner, forgetTokens, setSourceResolve, setRetryPauses } from '../../src/runners/index.ts'
import type { ColumnType } from '../../src/runners/index.ts'
import { expectCancelReachesEngine, runnerContract } from './contract.ts'
import { fakeBigQuery } from './fakes/bigquery.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { collect, expectRunnerError, opts, waitUntil } from './support.ts'

/* BigQuery against the REST API and token endpoint faked from Google's references (fakes/bigquery.ts). */
const bq = fakeBigQuery({ project: 'acme-analytics', tables: 100_000 })
const server = setupServer(...bq.handlers)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  // googleapis.com names answered with a documentation address: the requests never leave msw
  setSourceResolve(async () => [{ address: '198.51.100.60', family: 4 }])
  setRetryPauses([1, 1, 1])
})
afterEach(() => {
  bq.busyFor(0)
  server.resetHandlers()
})
afterAll(() => {
  server.close()
  setSourceResolve(undefined)
  setRetryPauses(undefined)
  forgetTokens()
})

const config = () => ({ projectId: 'acme-analytics', jsonKeyFile: bq.keyFile, loadSchema: true })
const signal = () => new AbortController().signal

runnerContract('BigQuery', () => ({
  runner: bigqueryRunner, config, large: 'SELECT n, label FROM shop.numbers LIMIT 100000', stopWithinMs: 1_000,
  simple: {
    text: 'SELECT id, name, price, active, created, day, tags, address FROM shop.orders',
    columns: [['id', 'integer'], ['name', 'string'], ['price', 'float'], ['active', 'boolean'], ['created', 'datetime'], ['day', 'date'], ['tags', 'string'], ['address', 'string']] as [string, ColumnType | null][],
    rows: [[1, 'first', 12.5, true, '2024-05-01T12:00:00.000Z', '2024-05-01', '["a","b"]', '{"city":"Paris","zip":"75001"}'], [2, null, null, false, null, null, '[]', null]],
  },
  table: { name: 'shop.orders', columns: ['id', 'name', 'address.city'] },
  bad: { text: 'SELECT nope FROM shop.orders', message: 'Unrecognized name: nope at [1:8]' },
}))

describe('BigQuery runner', () => {
  it('inserts a job, waits for it, and reads its pages, as recorded', async () => {
    const recorded = replay('bigquery/conversation.json', 'https://bigquery.googleapis.com')
    server.use(recorded.handler)
    const stream = await bigqueryRunner.run({ ...config(), location: 'EU' }, 'SELECT word, word_count FROM `bigquery-public-data.samples.shakespeare` ORDER BY word_count DESC LIMIT 3', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['word', 'string'], ['word_count', 'integer']])
    expect((await collect(stream)).rows).toEqual([['the', 995], ['I', 937], ['and', 848]])
    const jobId = (JSON.parse(recorded.seen[0].body) as { jobReference: { jobId: string } }).jobReference.jobId
    const seen = recorded.seen.map((s) => ({ ...s, path: s.path.replaceAll(jobId, 'JOBID'), body: s.body.replaceAll(jobId, 'JOBID') }))
    expect(matchesRecording(seen, recorded.exchanges)).toEqual(recorded.exchanges.map((x) => x.request))
    expect(recorded.done()).toBe(true)
    expect(jobId).toMatch(/^sightline_[0-9a-f]{32}$/)
  })

  it('a cancel while the job runs reaches BigQuery as jobs.cancel within a second', async () => {
    const text = 'SELECT slow FROM shop.events'
    const ms = await expectCancelReachesEngine((s) => bigqueryRunner.run(config(), text, { signal: s, timeoutMs: 600_000 }), async () => bq.running(text), 1_000)
    expect(ms).toBeLessThan(1_000)
    expect(bq.cancelled(text)).toBe(true)
  })

  it('estimates the bytes with a dry run, shows it, and refuses a query over the scanned-data limit', async () => {
    const stream = await bigqueryRunner.run({ ...config(), totalMBytesProcessedLimit: 1_000, maximumBytesBilled: 5e9 }, 'SELECT 1', opts())
    expect(stream.log).toContain('This query will process 123.4 MB.')
    await collect(stream)
    const inserted = bq.requests.filter((r) => r.path.endsWith('/jobs')).at(-1)!.body as { configuration: { query: { maximumBytesBilled: string } } }
    expect(inserted.configuration.query.maximumBytesBilled).toBe('5000000000')
    await expectRunnerError(bigqueryRunner.run({ ...config(), totalMBytesProcessedLimit: 100 }, 'SELECT 1', opts()), 'query', /^Larger than 100 MBytes will be processed \(123\.\d+ MBytes\)$/)
  })

  it('signs again when a token has expired; says so clearly when Google refuses the key', async () => {
    await collect(await bigqueryRunner.run(config(), 'SELECT 1', opts()))
    bq.expireTokens()
    expect((await collect(await bigqueryRunner.run(config(), 'SELECT 1', opts()))).rows).toEqual([[1]])
    const otherKey = JSON.parse(Buffer.from(bq.keyFile, 'base64').toString())
    otherKey.private_key_id = 'k2'
    otherKey.private_key = (await import('node:crypto')).generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' })
    await expectRunnerError(bigqueryRunner.test({ ...config(), jsonKeyFile: JSON.stringify(otherKey) }, signal()), 'connection',
      'Google refused the service account key (sightline@acme-analytics.iam.gserviceaccount.com): invalid_grant: Invalid JWT Signature.')
    await expectRunnerError(bigqueryRunner.test({ ...config(), jsonKeyFile: 'not a key' }, signal()), 'connection', /neither JSON nor base64 of JSON/)
  })

  it('asks again while BigQuery answers 503, then says it is unavailable', async () => {
    await collect(await bigqueryRunner.run(config(), 'SELECT 1', opts()))
    bq.busyFor(2)
    expect((await collect(await bigqueryRunner.run(config(), 'SELECT 1', opts()))).rows).toEqual([[1]])
    bq.busyFor(10)
    await expectRunnerError(bigqueryRunner.run(config(), 'SELECT 1', opts()), 'connection', /BigQuery at https:\/\/bigquery\.googleapis\.com is busy or unavailable: it answered 503 4 times/)
  })

  it('lists datasets page by page, and a dataset of 100,000 tables', async () => {
    const tables = await bigqueryRunner.schema(config(), signal())
    expect(tables.length).toBe(100_001) // shop.orders and big's 100,000
    expect(await bigqueryRunner.schema({ ...config(), loadSchema: false }, signal())).toEqual([])
    await waitUntil(async () => !bq.running('INFORMATION_SCHEMA'))
  })
})
