import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { elasticsearchRunner, trinoRunner } from '../../src/runners/index.ts'
import { expectRunnerError, opts } from '../runners/support.ts'

// Attacks on the warehouse sources through the service's answers: a coordinator (or whoever answers in its place)
// that names another host as the next address cannot make Sightline send the source's credentials, or anything,
// there: the run stops with a clear error and the other host is never asked.

const other: string[] = []
const esPaths: string[] = []
const server = setupServer(
  http.post('http://198.51.100.30:8080/v1/statement', () =>
    HttpResponse.json({ id: 'q1', infoUri: 'http://198.51.100.30:8080/ui/query.html?q1', nextUri: 'http://169.254.169.254/latest/meta-data/q1/1', stats: { state: 'QUEUED' } })),
  http.post('http://198.51.100.31:9200/*', ({ request }) => {
    esPaths.push(new URL(request.url).pathname)
    return HttpResponse.json({ hits: { hits: [] } })
  }),
  http.all('http://169.254.169.254/*', ({ request }) => {
    other.push(request.url)
    return HttpResponse.json({})
  }),
)
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }))
afterAll(() => server.close())

describe('Trino answers', () => {
  it('a nextUri on another host is refused, and never followed with the credentials', async () => {
    await expectRunnerError(trinoRunner.run({ host: '198.51.100.30', username: 'a', password: 'secret' }, 'SELECT 1', opts()), 'connection',
      'Trino sent a next address on another host (http://169.254.169.254); only http://198.51.100.30:8080 is queried.')
    expect(other).toEqual([])
  })
})

describe('Elasticsearch query text', () => {
  it('the index fills one path segment of the configured URL: no other path, no parent', async () => {
    const config = { url: 'http://198.51.100.31:9200/es/' }
    await elasticsearchRunner.run(config, JSON.stringify({ index: '../_security/user?x=', query: {} }), opts())
    await elasticsearchRunner.run(config, JSON.stringify({ index: 'logs-*,metrics', query: {} }), opts())
    expect(esPaths).toEqual(['/es/..%2F_security%2Fuser%3Fx%3D/_search', '/es/logs-*,metrics/_search'])
    await expectRunnerError(elasticsearchRunner.run(config, JSON.stringify({ index: '..' }), opts()), 'query', 'Invalid index name: ..')
  })
})
