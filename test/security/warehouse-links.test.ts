import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { trinoRunner } from '../../src/runners/trino.ts'
import { expectRunnerError, opts } from '../runners/support.ts'

// Attacks on the warehouse sources through the service's answers: a coordinator (or whoever answers in its place)
// that names another host as the next address cannot make Sightline send the source's credentials, or anything,
// there: the run stops with a clear error and the other host is never asked.

const other: string[] = []
const server = setupServer(
  http.post('http://198.51.100.30:8080/v1/statement', () =>
    HttpResponse.json({ id: 'q1', infoUri: 'http://198.51.100.30:8080/ui/query.html?q1', nextUri: 'http://169.254.169.254/latest/meta-data/q1/1', stats: { state: 'QUEUED' } })),
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
