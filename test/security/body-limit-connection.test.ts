import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server.ts'

/**
 * A body refused before it is read stays on the connection, so the server must close it: a client that reused it
 * for its next request would see that request fail ("other side closed") through no fault of its own.
 */
let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stop())

it('closes the connection after refusing a body it did not read, so the next request on it is not lost', async () => {
  const big = JSON.stringify({ name: 'x', snippet: 'y'.repeat(2 * 1_048_576) })
  for (let round = 0; round < 3; round++) {
    const refused = await fetch(`${server.url}/api/query_snippets`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: big,
    })
    expect(refused.status).toBe(413)
    expect(refused.headers.get('connection')).toBe('close')
    await refused.arrayBuffer()
    for (let i = 0; i < 3; i++) {
      const next = await fetch(`${server.url}/ping`)
      expect(await next.text()).toBe('PONG.')
    }
  }
})
