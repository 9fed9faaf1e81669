import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createJsonRunner, jsonRunner as runner, liveParseThreads, parseThreadEvents, THREAD_ABOVE_BYTES, systemResolve } from '../../src/runners/index.ts'
import type { Send } from '../../src/runners/index.ts'
import { collect, expectRunnerError, opts, waitUntil } from './support.ts'

// Answers larger than THREAD_ABOVE_BYTES are parsed in a worker thread: the rows must be those a small answer gives,
// the server's event loop must keep turning while the thread parses, and a cancel must end the thread.

const items: unknown[] = [
  { id: 1, name: 'Ann', price: 1.5, active: true, created: '2024-01-02T03:04:05Z', meta: { color: 'red', size: 2 }, tags: [1, 2], note: null },
  { id: 2, name: 'Bö ✓ 日本', price: 3, active: false, day: '2024-02-29', meta: { color: 'blue' }, tags: [], note: 'x', constructor: 5 },
  'a plain value',
]
const itemBytes = JSON.stringify(items).length
/** How many copies of `items` make an answer comfortably larger than the threshold. */
const LARGE = Math.ceil((3 * THREAD_ABOVE_BYTES) / itemBytes)

let server: http.Server
let base: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x')
    const times = Number(u.searchParams.get('times') ?? 1)
    const many = Array.from({ length: times }, () => items).flat()
    const json = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(value))
    }
    if (u.pathname === '/items') return json(many)
    if (u.pathname === '/wrapped') return json({ data: { items: many } })
    // a large first page, then a small one bringing a new column
    if (u.pathname === '/pages') {
      return u.searchParams.get('page') === '2' ? json({ rows: [{ extra: 'e', id: 9 }], next: null })
        : json({ rows: many, next: `/pages?page=2&times=${times}` })
    }
    if (u.pathname === '/numbers') return json(Array.from({ length: Number(u.searchParams.get('n')) }, (_, i) => ({ id: i })))
    if (u.pathname === '/heavy') {
      // fewer items than a main-thread turn takes, each large: parsing is most of the work
      return json(Array.from({ length: 2_000 }, (_, i) => ({ id: i, values: Array.from({ length: 400 }, (_, j) => i * j) })))
    }
    if (u.pathname === '/not-json') return res.writeHead(200).end('x'.repeat(2 * THREAD_ABOVE_BYTES))
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const config = () => ({ base_url: base })
const q = (o: object) => JSON.stringify(o)

describe('JSON runner, large answers', () => {
  it('gives a large answer (parsed in a thread) the rows and columns a small one gets', async () => {
    const queries = [
      { url: 'items' },
      { url: 'wrapped', path: 'data.items', fields: ['name', 'meta.color', 'id', 'value'] },
      { url: 'items', fields: ['meta', 'tags', 'meta'] },
      { url: 'pages', path: 'rows', pagination: { type: 'url', path: 'next' } },
    ]
    for (const query of queries) {
      let threads = 0
      const started = () => threads++
      parseThreadEvents.on('start', started)
      try {
        const small = await runner.run(config(), q({ ...query, params: { times: 1 } }), opts())
        const smallRows = (await collect(small)).rows
        expect(threads).toBe(0)
        const large = await runner.run(config(), q({ ...query, params: { times: LARGE } }), opts())
        const largeRows = (await collect(large)).rows
        expect(threads).toBe(1)
        expect(large.columns).toEqual(small.columns)
        const perCopy = items.length
        const expected = Array.from({ length: LARGE }, () => smallRows.slice(0, perCopy)).flat().concat(smallRows.slice(perCopy))
        expect(largeRows.length).toBe(expected.length)
        expect(largeRows).toEqual(expected)
      } finally {
        parseThreadEvents.off('start', started)
      }
    }
  })

  it('explains a large answer it cannot use as a small one, and lets go of the thread', async () => {
    let threads = 0
    const started = () => threads++
    parseThreadEvents.on('start', started)
    try {
      await expectRunnerError(runner.run(config(), q({ url: 'not-json' }), opts()), 'query', /^The response from 'http:\/\/127\.0\.0\.1:\d+\/not-json' is not JSON: x{200}$/)
      await expectRunnerError(runner.run(config(), q({ url: 'wrapped', path: 'data.nothing', params: { times: LARGE } }), opts()), 'query',
        "The response has nothing at path 'data.nothing'.")
      expect(threads).toBe(2)
      await waitUntil(async () => liveParseThreads() === 0)
    } finally {
      parseThreadEvents.off('start', started)
    }
  })

  it('keeps the event loop turning while a large answer is parsed: a timer set when the body ends fires first', async () => {
    // The transport tells when the last byte of the answer has been read; a timer set then can only fire before the
    // run has its rows if the parse and the flattening leave the event loop free.
    const events: string[] = []
    let threadsWhenTimerFired = -1
    const send: Send = (url, _addresses, request, signal) => new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: request.method, headers: request.headers, agent: false, signal }, (res) => {
        res.once('end', () => setTimeout(() => {
          events.push('timer')
          threadsWhenTimerFired = liveParseThreads()
        }, 0))
        resolve(res)
      })
      req.on('error', reject)
      req.end(request.body)
    })
    const stream = await createJsonRunner({ resolve: systemResolve, send }).run(config(), q({ url: 'heavy' }), opts())
    events.push('rows')
    expect(events).toEqual(['timer', 'rows'])
    expect(threadsWhenTimerFired).toBe(1) // the thread was still there: the timer fired during the parse
    expect((await collect(stream)).rows).toHaveLength(2_000)
  })

  it('cancelling while a thread reads a large answer ends the run at once and terminates the thread', async () => {
    const controller = new AbortController()
    // cancel once the thread is running (a turn after it was created)
    parseThreadEvents.once('start', () => setImmediate(() => controller.abort()))
    const run = runner.run(config(), q({ url: 'numbers', params: { n: 400_000 } }), { signal: controller.signal, timeoutMs: 60_000 })
    await expectRunnerError(run, 'cancelled', 'Query cancelled by user.')
    // Left alone, the thread would wait for the rest of the body (or, once it has it, for the main thread to ask for
    // each slice of rows) for ever: it is gone only because the cancel terminated it.
    await waitUntil(async () => liveParseThreads() === 0)
  })
})
