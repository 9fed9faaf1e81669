import http from 'node:http'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/db/index.ts'
import { jsonRunner as runner } from '../../src/runners/index.ts'
import { collect, silentServer, expectRunnerError, opts, unansweredPort, waitUntil, WAIT_MS } from './support.ts'

const items = [
  { id: 1, name: 'Ann', price: 1.5, active: true, created: '2024-01-02T03:04:05Z', day: '2024-01-02', meta: { color: 'red', size: 2 }, tags: [1, 2], note: null },
  { id: 2, name: 'Bö ✓ 日本', price: 3, active: false, created: '2024-02-03T04:05:06.789Z', day: '2024-02-29', meta: { color: 'blue' }, tags: [], note: 'x' },
]
let server: http.Server
let base: string
let openRequests = 0
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      const u = new URL(req.url!, 'http://x')
      const json = (value: unknown, status = 200) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(value))
      }
      if (u.pathname === '/api/items') return json(items)
      if (u.pathname === '/api/wrapped') return json({ data: { items }, total: 2 })
      if (u.pathname === '/api/one') return json({ id: 7, name: 'single' })
      if (u.pathname === '/api/pages') {
        const page = Number(u.searchParams.get('page') ?? 1)
        return json({ rows: [{ page }], _links: { next: { href: page < 3 ? `/api/pages?page=${page + 1}` : null } } })
      }
      if (u.pathname === '/api/tokens') {
        const token = u.searchParams.get('page_token')
        return json({ rows: [{ token }], next_page_token: token ? (token === 'b' ? null : 'b') : 'a' })
      }
      if (u.pathname === '/api/echo') return json({ method: req.method, auth: req.headers.authorization ?? null, body, q: u.searchParams.get('q') })
      if (u.pathname === '/api/broken') return json({ error: 'nope' }, 500)
      if (u.pathname === '/api/see-other') return (res.writeHead(303, { location: '/api/echo?q=303' }), res.end())
      if (u.pathname === '/api/temporary') return (res.writeHead(307, { location: `${base}/api/echo?q=307` }), res.end())
      if (u.pathname === '/api/gzip' || u.pathname === '/api/br') {
        const body = Buffer.from(JSON.stringify(items.map((i) => ({ id: i.id, name: i.name }))))
        const gzip = u.pathname === '/api/gzip'
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': gzip ? 'gzip' : 'br' })
        return res.end(gzip ? zlib.gzipSync(body) : zlib.brotliCompressSync(body))
      }
      if (u.pathname === '/api/text') return (res.writeHead(200), res.end('hello'))
      if (u.pathname === '/api/slow') {
        openRequests++
        res.on('close', () => openRequests--)
        return // never answers
      }
      json({ error: 'not found' }, 404)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const config = () => ({ base_url: `${base}/api/` })
const signal = () => new AbortController().signal
const q = (o: object) => JSON.stringify(o)

describe('JSON runner', () => {
  it('test() reaches the base URL, and fails clearly on a closed port or an unreachable host', async () => {
    await runner.test(config(), signal())
    await runner.test({}, signal())
    const closed = await freePort()
    const refused = await expectRunnerError(runner.test({ base_url: `http://127.0.0.1:${closed}` }, signal()), 'connection', `Could not reach http://127.0.0.1:${closed}: ECONNREFUSED`)
    expect(refused).toBeLessThan(WAIT_MS) // no retrying
    const dropped = await unansweredPort()
    try {
      const unreachable = await expectRunnerError(runner.test({ base_url: `http://127.0.0.1:${dropped.port}/` }, signal()), 'connection', `Could not reach http://127.0.0.1:${dropped.port}: no answer within 1 s`)
      expect(unreachable).toBeLessThan(WAIT_MS) // the runner gives up by itself; the system would try for minutes
    } finally {
      await dropped.close()
    }
    const silent = await silentServer()
    try {
      const hung = await expectRunnerError(runner.test({ base_url: `http://127.0.0.1:${silent.port}/` }, signal()), 'connection', /Could not reach http:\/\/127\.0\.0\.1:\d+: no answer within 1 s/)
      expect(hung).toBeLessThan(WAIT_MS) // a service that never answers would hang it forever
    } finally {
      await silent.close()
    }
  })

  it('fetches a list and infers column types; nested objects are flattened one level', async () => {
    const stream = await runner.run(config(), q({ url: 'items' }), opts())
    expect(stream.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'integer'], ['name', 'string'], ['price', 'float'], ['active', 'boolean'], ['created', 'datetime'],
      ['day', 'date'], ['meta.color', 'string'], ['meta.size', 'integer'], ['tags', 'string'], ['note', 'string'],
    ])
    expect((await collect(stream)).rows).toEqual([
      [1, 'Ann', 1.5, true, '2024-01-02T03:04:05Z', '2024-01-02', 'red', 2, [1, 2], null],
      [2, 'Bö ✓ 日本', 3, false, '2024-02-03T04:05:06.789Z', '2024-02-29', 'blue', null, [], 'x'],
    ])
  })

  it('takes the value at a path, keeps only the listed fields (in their order), and accepts YAML', async () => {
    const stream = await runner.run(config(), 'url: wrapped\npath: data.items\nfields: [name, meta.color, id]\n', opts())
    expect(stream.columns.map((c) => c.name)).toEqual(['name', 'meta.color', 'id'])
    expect((await collect(stream)).rows).toEqual([['Ann', 'red', 1], ['Bö ✓ 日本', 'blue', 2]])
    expect((await collect(await runner.run(config(), q({ url: 'one' }), opts()))).rows).toEqual([[7, 'single']])
    expect((await collect(await runner.run(config(), q({ url: `${base}/api/one`, fields: ['name'] }), opts()))).rows).toEqual([['single']])
  })

  it('keeps query text out of the server\'s own network: internal hosts need a base URL, which fixes the origin', async () => {
    await expectRunnerError(runner.run({}, q({ url: `${base}/api/one` }), opts()), 'query', /127\.0\.0\.1 is an internal address/)
    await expectRunnerError(runner.run(config(), q({ url: 'http://169.254.169.254/latest/meta-data' }), opts()), 'query', /only queries http:\/\/127\.0\.0\.1/)
  })

  it('follows url and token pagination', async () => {
    expect((await collect(await runner.run(config(), q({ url: 'pages', path: 'rows', pagination: { type: 'url' } }), opts()))).rows)
      .toEqual([[1], [2], [3]])
    expect((await collect(await runner.run(config(), q({ url: 'tokens', path: 'rows', pagination: { type: 'token' } }), opts()))).rows)
      .toEqual([[null], ['a'], ['b']])
  })

  it('sends POST bodies, params, and basic auth from the data source, and not the headers that frame the request', async () => {
    const stream = await runner.run({ ...config(), username: 'ann', password: 'pw' }, q({ url: 'echo', json: { a: 1 }, params: { q: 'x y' } }), opts())
    const [[method, auth, body, param]] = (await collect(stream)).rows
    expect([method, auth, body, param]).toEqual(['POST', 'Basic ' + Buffer.from('ann:pw').toString('base64'), '{"a":1}', 'x y'])
    expect(seen.at(-1)!.headers['content-type']).toBe('application/json')
    await collect(await runner.run(config(), q({ url: 'echo', headers: { Host: 'metadata.internal', 'Transfer-Encoding': 'chunked', 'X-Mine': 'kept' } }), opts()))
    expect(seen.at(-1)!.headers).toMatchObject({ host: new URL(base).host, 'x-mine': 'kept' })
    expect(seen.at(-1)!.headers['transfer-encoding']).toBeUndefined()
  })

  it('follows redirects on the base URL origin: 303 turns a POST into a GET, 307 repeats it with its body', async () => {
    const source = { ...config(), username: 'ann', password: 'pw' }
    const [seeOther] = (await collect(await runner.run(source, q({ url: 'see-other', json: { a: 1 } }), opts()))).rows
    expect(seeOther.slice(0, 4)).toEqual(['GET', 'Basic ' + Buffer.from('ann:pw').toString('base64'), '', '303'])
    expect(seen.at(-1)!.headers['content-type']).toBeUndefined()
    const [temporary] = (await collect(await runner.run(source, q({ url: 'temporary', json: { a: 1 } }), opts()))).rows
    expect(temporary.slice(0, 4)).toEqual(['POST', 'Basic ' + Buffer.from('ann:pw').toString('base64'), '{"a":1}', '307'])
  })

  it('reads gzip and brotli answers', async () => {
    for (const url of ['gzip', 'br']) {
      expect((await collect(await runner.run(config(), q({ url }), opts()))).rows).toEqual([[1, 'Ann'], [2, 'Bö ✓ 日本']])
    }
  })

  it('refuses other schemes and explains bad query text', async () => {
    await expectRunnerError(runner.run({}, q({ url: 'file:///etc/passwd' }), opts()), 'query', /Only http and https URLs can be queried \(got file\)/)
    await expectRunnerError(runner.run({ base_url: 'ftp://example.com/' }, q({ url: 'x' }), opts()), 'query', /got ftp/)
    await expectRunnerError(runner.run(config(), '', opts()), 'query', 'Query is empty.')
    await expectRunnerError(runner.run(config(), '[1, 2]', opts()), 'query', 'Query should be a YAML object describing the URL to query.')
    await expectRunnerError(runner.run(config(), q({ path: 'x' }), opts()), 'query', "Query must include 'url' option.")
    await expectRunnerError(runner.run(config(), q({ url: 'items', method: 'delete' }), opts()), 'query', 'Only GET or POST methods are allowed.')
    await expectRunnerError(runner.run(config(), q({ url: 'items', fields: 'id' }), opts()), 'query', "'fields' needs to be a list.")
    await expectRunnerError(runner.run(config(), q({ url: 'broken' }), opts()), 'query', /Failed getting results \(500\): \{"error":"nope"\}/)
    await expectRunnerError(runner.run(config(), q({ url: 'text' }), opts()), 'query', /is not JSON: hello/)
  })

  it('stops waiting at the time limit and closes the request', async () => {
    const ms = await expectRunnerError(runner.run(config(), q({ url: 'slow' }), opts(300)), 'timeout', /time limit of 300 ms/)
    expect(ms).toBeLessThan(WAIT_MS) // the answer never comes
    await waitUntil(async () => openRequests === 0)
  })

  it('cancelling aborts the request', async () => {
    const controller = new AbortController()
    const run = runner.run(config(), q({ url: 'slow' }), { signal: controller.signal, timeoutMs: 60_000 })
    await waitUntil(async () => openRequests === 1)
    controller.abort()
    await expectRunnerError(run, 'cancelled', 'Query cancelled by user.')
    await waitUntil(async () => openRequests === 0)
  })

  it('has no schema', async () => {
    expect(await runner.schema(config(), signal())).toEqual([])
  })
})
