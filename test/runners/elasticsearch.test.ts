import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { elasticsearchRunner, legacyElasticsearchRunner, openDistroSqlRunner, xpackSqlRunner, setRetryPauses } from '../../src/runners/index.ts'
import type { ColumnType, Runner } from '../../src/runners/index.ts'
import { runnerContract } from './contract.ts'
import { ES_SIMPLE, fakeElasticsearch } from './fakes/elasticsearch.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* The Elasticsearch kinds against a node faked from the REST reference (fakes/elasticsearch.ts). */
const es = fakeElasticsearch({ origin: 'http://198.51.100.40:9200' })
const secured = fakeElasticsearch({ origin: 'https://198.51.100.41:9200', password: 'changeme', indices: 100_000 })
const recorded = replay('elasticsearch/conversation.json', 'http://198.51.100.42:9200')
const server = setupServer(...es.handlers, ...secured.handlers, recorded.handler)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  setRetryPauses([1, 1, 1])
})
afterEach(() => es.busyFor(0))
afterAll(() => {
  server.close()
  setRetryPauses(undefined)
})

const config = { url: 'http://198.51.100.40:9200' }
const LARGE = 'SELECT n, label FROM numbers LIMIT 100000'
const signal = () => new AbortController().signal
const sqlSubject = (runner: Runner, message: string) => () => ({
  runner, config: () => config, large: LARGE, running: async () => es.open(LARGE), stopWithinMs: 1_000,
  simple: {
    text: ES_SIMPLE,
    columns: [['author', 'string'], ['name', 'string'], ['page_count', 'integer'], ['release_date', 'datetime'], ['rating', 'float'], ['available', 'boolean']] as [string, ColumnType | null][],
    rows: [['Frank Herbert', 'Dune', 604, '1965-06-01T00:00:00.000Z', 4.5, true], ['Dan Simmons', 'Hyperion', 482, '1989-05-26T00:00:00.000Z', 4.25, false]],
  },
  table: { name: 'library', columns: ['author', 'name', 'page_count', 'release_date', 'publisher.name'] },
  bad: { text: 'SELECT nope FROM library', message },
})
runnerContract('X-Pack SQL Elasticsearch', sqlSubject(xpackSqlRunner, 'verification_exception: Found 1 problem\nline 1:8: Unknown column [nope]'))
runnerContract('Open Distro SQL Elasticsearch', sqlSubject(openDistroSqlRunner, 'SemanticAnalysisException: Invalid SQL query Field [nope] cannot be found or used here.'))

describe('Elasticsearch SQL', () => {
  it('reads the pages by their cursor, as recorded', async () => {
    const stream = await xpackSqlRunner.run({ url: 'http://198.51.100.42:9200/', username: 'elastic', password: 'changeme' },
      'SELECT author, name, page_count, release_date FROM library ORDER BY page_count DESC', opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['author', 'string'], ['name', 'string'], ['page_count', 'integer'], ['release_date', 'datetime']])
    expect((await collect(stream)).rows.map((r) => r[1])).toEqual(["Pandora's Star", 'A Fire Upon the Deep', 'Dune'])
    expect(matchesRecording(recorded.seen, recorded.exchanges)).toEqual(recorded.exchanges.map((x) => x.request))
    expect(recorded.done()).toBe(true)
  })

  it('asks again while the node rejects work (429), then says it is busy', async () => {
    es.busyFor(3)
    expect((await collect(await xpackSqlRunner.run(config, 'SELECT 1', opts()))).rows).toEqual([[1]])
    es.busyFor(10)
    await expectRunnerError(xpackSqlRunner.run(config, 'SELECT 1', opts()), 'connection', /is busy or unavailable: it answered 429 4 times \(last: .*es_rejected_execution_exception/)
  })

  it('sends Basic credentials, and says clearly when they are refused', async () => {
    const secure = { url: 'https://198.51.100.41:9200', username: 'elastic', password: 'changeme' }
    await xpackSqlRunner.test(secure, signal())
    await expectRunnerError(xpackSqlRunner.test({ ...secure, password: 'old' }, signal()), 'connection',
      'Elasticsearch refused the credentials (401): security_exception: unable to authenticate user [elastic] for REST request [/_cluster/health]. Check the data source\'s credentials; a token or key may have expired.')
  })

  it('lists 100,000 indices with their mappings, hidden indices left out', async () => {
    const tables = await xpackSqlRunner.schema({ url: 'https://198.51.100.41:9200', username: 'elastic', password: 'changeme' }, signal())
    expect(tables.length).toBe(100_001)
    expect(tables.some((t) => t.name.startsWith('.'))).toBe(false)
  })
})

describe('Elasticsearch query DSL (the established JSON text)', () => {
  it('answers hits as rows of their _source, typed by their first values, and keeps to result_fields', async () => {
    const stream = await elasticsearchRunner.run(config, JSON.stringify({ index: 'library', query: { match_all: {} }, size: 10 }), opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([['author', 'string'], ['name', 'string'], ['page_count', 'integer'], ['release_date', 'string'], ['rating', 'float'], ['available', 'boolean']])
    expect((await collect(stream)).rows[0]).toEqual(['Frank Herbert', 'Dune', 604, '1965-06-01T00:00:00.000Z', 4.5, true])
    expect(es.requests.at(-1)).toEqual({ method: 'POST', path: '/library/_search', body: { query: { match_all: {} }, size: 10 } })
    const only = await collect(await elasticsearchRunner.run(config, JSON.stringify({ index: 'library', result_fields: ['name'], size: 1 }), opts()))
    expect(only.rows).toEqual([['Dune']])
  })

  it('answers aggregations as a row per leaf bucket, carrying the parents\' keys and metrics', async () => {
    const text = JSON.stringify({ index: 'library', size: 0, aggs: { by_author: { terms: { field: 'author.keyword' }, aggs: { avg_pages: { avg: { field: 'page_count' } }, by_year: { date_histogram: { field: 'release_date', calendar_interval: 'year' } } } } } })
    const stream = await legacyElasticsearchRunner.run({ server: 'http://198.51.100.40:9200' }, text, opts())
    expect(stream.columns.map((c) => c.name)).toEqual(['by_author', 'by_author.doc_count', 'by_author.avg_pages.value', 'by_year', 'by_year.doc_count'])
    expect((await collect(stream)).rows).toEqual([
      ['Frank Herbert', 1, 604, '1965-01-01T00:00:00.000Z', 1],
      ['Dan Simmons', 1, 482, '1989-01-01T00:00:00.000Z', 1],
    ])
  })

  it('says what is wrong: bad JSON, an unknown index, no URL', async () => {
    await expectRunnerError(elasticsearchRunner.run(config, '{index: ', opts()), 'query', /^Invalid JSON format\. /)
    await expectRunnerError(elasticsearchRunner.run(config, '{"index": "nope"}', opts()), 'query', 'index_not_found_exception: no such index [nope]')
    await expectRunnerError(legacyElasticsearchRunner.run({}, '{}', opts()), 'connection', "Missing configuration key 'server'")
  })

  it('Test Connection asks for the cluster\'s health; the schema lists mappings as dotted paths', async () => {
    await elasticsearchRunner.test(config, signal())
    expect(es.requests.at(-1)?.path).toBe('/_cluster/health')
    const tables = await legacyElasticsearchRunner.schema({ server: 'http://198.51.100.40:9200' }, signal())
    expect(tables).toEqual([{ name: 'library', columns: [{ name: 'author', type: 'text' }, { name: 'name', type: 'text' }, { name: 'page_count', type: 'short' }, { name: 'release_date', type: 'date' }, { name: 'publisher.name', type: 'keyword' }, { name: 'publisher.city', type: 'keyword' }] }])
  })
})
