import http from 'node:http'
import zlib from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Resolve, ResolvedAddress, Send } from '../../src/runners/index.ts'
import { createJsonRunner, jsonRunner } from '../../src/runners/index.ts'
import { collect, expectRunnerError, opts, waitUntil } from '../runners/support.ts'

// Attacks on the JSON source through its query text: redirects out of the Base URL or into the server's own network,
// DNS answers that change between the check and the connection, and answers too large (or endless) to read.
// Nothing here connects outside 127.0.0.0/8: "public" hosts are names answered by an injected DNS resolver, and their
// requests are carried to a local server by an injected transport.

interface Hit { host: string; path: string; address: string }

/** A local HTTP server that records what reached it and answers through `handle`. */
async function serve(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void, host = '127.0.0.1', port = 0) {
  const hits: Hit[] = []
  const open = new Set<http.ServerResponse>()
  const server = http.createServer((req, res) => {
    hits.push({ host: req.headers.host ?? '', path: req.url ?? '', address: req.socket.localAddress ?? '' })
    open.add(res)
    res.on('close', () => open.delete(res))
    handle(req, res)
  })
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve))
  const bound = (server.address() as { port: number }).port
  return {
    hits, open, port: bound, origin: `http://${host}:${bound}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
type Served = Awaited<ReturnType<typeof serve>>

const json = (res: http.ServerResponse, value: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}
const redirect = (res: http.ServerResponse, to: string, status = 302) => {
  res.writeHead(status, { location: to })
  res.end()
}
const q = (o: object) => JSON.stringify(o)
const v4 = (address: string): ResolvedAddress => ({ address, family: 4 })

/** A DNS server: `answer` gives each question's addresses; `asked` lists the names asked, in order. */
function dns(answer: (name: string, nth: number) => string[]) {
  const asked: string[] = []
  const resolve: Resolve = async (name) => {
    asked.push(name)
    return answer(name, asked.filter((n) => n === name).length).map(v4)
  }
  return { resolve, asked }
}

/**
 * The internet, played by one local server: a transport that carries every request to `to` (with the URL's host in
 * the Host header) and records where it was told to connect, so a test sees the addresses the guard handed over.
 */
function internet(to: Served) {
  const sent: { url: string; addresses: string[] }[] = []
  const send: Send = (url, addresses, request, signal) => new Promise((resolve, reject) => {
    sent.push({ url: url.href, addresses: addresses.map((a) => a.address) })
    const req = http.request({
      host: '127.0.0.1', port: to.port, path: url.pathname + url.search, method: request.method,
      headers: { ...request.headers, host: url.host }, agent: false, signal,
    }, resolve)
    req.on('error', reject)
    req.end(request.body)
  })
  return { send, sent }
}

let base: Served
let elsewhere: Served

beforeAll(async () => {
  elsewhere = await serve((_req, res) => json(res, [{ secret: 'internal' }]))
  base = await serve((req, res) => {
    const u = new URL(req.url!, 'http://x')
    if (u.pathname === '/api/out') return redirect(res, `${elsewhere.origin}/secret`)
    if (u.pathname === '/api/hop1') return redirect(res, '/api/hop2', 301)
    if (u.pathname === '/api/hop2') return redirect(res, '/api/hop3', 307)
    if (u.pathname === '/api/hop3') return redirect(res, `${elsewhere.origin}/secret`, 308)
    if (u.pathname === '/api/inside') return redirect(res, '/api/data')
    if (u.pathname === '/api/data') return json(res, [{ id: 1 }])
    if (u.pathname === '/api/loop') return redirect(res, `/api/loop?n=${Number(u.searchParams.get('n') ?? 0) + 1}`)
    json(res, { error: 'not found' })
  })
})
afterAll(async () => {
  await base.close()
  await elsewhere.close()
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const baseConfig = () => ({ base_url: `${base.origin}/api/` })

describe('JSON source redirects', () => {
  it('follows a redirect that stays on the Base URL origin', async () => {
    expect((await collect(await jsonRunner.run(baseConfig(), q({ url: 'inside' }), opts()))).rows).toEqual([[1]])
  })

  it('refuses a redirect out of the Base URL origin, and never asks the other origin', async () => {
    await expectRunnerError(jsonRunner.run(baseConfig(), q({ url: 'out' }), opts()), 'query',
      `Refused a redirect out of the Base URL's origin (${base.origin}) to ${elsewhere.origin}.`)
    expect(elsewhere.hits).toEqual([])
  })

  it('checks every hop of a redirect chain, not only the first', async () => {
    const before = base.hits.length
    await expectRunnerError(jsonRunner.run(baseConfig(), q({ url: 'hop1' }), opts()), 'query', /redirect out of the Base URL/)
    expect(base.hits.slice(before).map((h) => h.path)).toEqual(['/api/hop1', '/api/hop2', '/api/hop3'])
    expect(elsewhere.hits).toEqual([])
  })

  it('stops after five redirects', async () => {
    const before = base.hits.length
    await expectRunnerError(jsonRunner.run(baseConfig(), q({ url: 'loop' }), opts()), 'query', /Too many redirects: .*\/api\/loop still redirects after 5/)
    expect(base.hits.length - before).toBe(6)
  })

  it('test() takes a redirect as an answer and does not follow it', async () => {
    await jsonRunner.test({ base_url: `${base.origin}/api/out` }, new AbortController().signal)
    expect(elsewhere.hits).toEqual([])
  })
})

describe('JSON source without a Base URL: the internal-address guard', () => {
  let web: Served
  beforeAll(async () => {
    web = await serve((req, res) => {
      const host = (req.headers.host ?? '').split(':')[0]
      if (host === 'public.example.test' && req.url === '/to-loopback') return redirect(res, `${elsewhere.origin}/secret`)
      if (host === 'public.example.test' && req.url === '/to-second') return redirect(res, 'http://second.example.test/to-metadata')
      if (host === 'second.example.test') return redirect(res, 'http://metadata.example.test/latest')
      if (host === 'public.example.test' && req.url === '/data') return json(res, [{ id: 42 }])
      json(res, { host, url: req.url })
    })
  })
  afterAll(() => web.close())

  const publicDns = () => dns((name) => (name === 'metadata.example.test' ? ['169.254.169.254'] : ['203.0.113.5']))

  it('reaches a public host, connecting to the address it checked', async () => {
    const { resolve, asked } = publicDns()
    const { send, sent } = internet(web)
    const runner = createJsonRunner({ resolve, send })
    expect((await collect(await runner.run({}, q({ url: 'http://public.example.test/data' }), opts()))).rows).toEqual([[42]])
    expect(asked).toEqual(['public.example.test'])
    expect(sent).toEqual([{ url: 'http://public.example.test/data', addresses: ['203.0.113.5'] }])
  })

  it('refuses a public host that redirects to a loopback address', async () => {
    const { resolve } = publicDns()
    const { send, sent } = internet(web)
    await expectRunnerError(createJsonRunner({ resolve, send }).run({}, q({ url: 'http://public.example.test/to-loopback' }), opts()), 'query',
      `Refused a redirect to ${elsewhere.origin}/secret: 127.0.0.1 is an internal address; set a Base URL on the data source to query it.`)
    expect(sent.map((s) => s.url)).toEqual(['http://public.example.test/to-loopback'])
    expect(elsewhere.hits).toEqual([])
  })

  it('checks each hop of a chain again, resolving each new name', async () => {
    const { resolve, asked } = publicDns()
    const { send, sent } = internet(web)
    await expectRunnerError(createJsonRunner({ resolve, send }).run({}, q({ url: 'http://public.example.test/to-second' }), opts()), 'query',
      'Refused a redirect to http://metadata.example.test/latest: metadata.example.test (169.254.169.254) is an internal address')
    expect(asked).toEqual(['public.example.test', 'second.example.test', 'metadata.example.test'])
    expect(sent.map((s) => s.url)).toEqual(['http://public.example.test/to-second', 'http://second.example.test/to-metadata'])
  })

  it('refuses a name whose DNS answer mixes a public and an internal address, before connecting', async () => {
    const { resolve } = dns(() => ['203.0.113.5', '127.0.0.1'])
    const { send, sent } = internet(web)
    await expectRunnerError(createJsonRunner({ resolve, send }).run({}, q({ url: 'http://rebind.example.test/data' }), opts()), 'query',
      'rebind.example.test (127.0.0.1) is an internal address')
    expect(sent).toEqual([])
  })

  it('asks DNS once per request: a second answer (internal this time) is never used to connect', async () => {
    const { resolve, asked } = dns((_name, nth) => (nth === 1 ? ['203.0.113.5'] : ['127.0.0.1']))
    const { send, sent } = internet(web)
    await collect(await createJsonRunner({ resolve, send }).run({}, q({ url: 'http://public.example.test/data' }), opts()))
    expect(asked).toEqual(['public.example.test'])
    expect(sent[0].addresses).toEqual(['203.0.113.5'])
  })
})

describe('JSON source connections go to the checked address', () => {
  let first: Served
  let second: Served | null = null
  beforeAll(async () => {
    first = await serve((_req, res) => json(res, [{ server: 'checked' }]))
    // The same port on another loopback address: where a second DNS answer would lead.
    second = await serve((_req, res) => json(res, [{ server: 'rebound' }]), '127.0.0.2', first.port).catch(() => null)
  })
  afterAll(async () => {
    await first.close()
    await second?.close()
  })

  it('connects to the address DNS gave the check, with the name in the Host header, whatever DNS answers next', async () => {
    const { resolve, asked } = dns((_name, nth) => (nth === 1 ? ['127.0.0.1'] : ['127.0.0.2']))
    const origin = `http://rebind.example.test:${first.port}`
    const stream = await createJsonRunner({ resolve }).run({ base_url: `${origin}/` }, q({ url: 'data' }), opts())
    expect((await collect(stream)).rows).toEqual([['checked']])
    expect(asked).toEqual(['rebind.example.test'])
    expect(first.hits).toEqual([{ host: `rebind.example.test:${first.port}`, path: '/data', address: '127.0.0.1' }])
    expect(second?.hits ?? []).toEqual([])
  })
})

describe('JSON source answer size', () => {
  const limit = 64 * 1024
  let big: Served
  beforeAll(async () => {
    big = await serve((req, res) => {
      if (req.url === '/endless') {
        // Writes for as long as the client reads.
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('[')
        const chunk = Buffer.from('"' + 'x'.repeat(16 * 1024) + '",')
        const more = () => { while (!res.destroyed && res.write(chunk)); }
        res.on('drain', more)
        more()
        return
      }
      if (req.url === '/declared') {
        // Says 300 MB and then sends nothing more: only the header can refuse it at once.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) })
        res.write('[')
        return
      }
      if (req.url === '/bomb') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        res.end(zlib.gzipSync(Buffer.from(JSON.stringify(['y'.repeat(8 * 1024 * 1024)]))))
        return
      }
      const page = Number(new URL(req.url!, 'http://x').searchParams.get('page') ?? 1)
      json(res, { rows: [{ page, pad: 'z'.repeat(40 * 1024) }], next: page < 3 ? `/pages?page=${page + 1}` : null })
    })
  })
  afterAll(() => big.close())

  const run = (url: string, extra: object = {}) =>
    jsonRunner.run({ base_url: `${big.origin}/` }, q({ url, ...extra }), opts(10_000))
  const tooLarge = /is larger than 64 KB, the most one result may take; reading stopped there \(an administrator can raise SIGHTLINE_MAX_RESULT_BYTES\)/

  it('refuses an endless answer once it passes the limit, and lets go of the connection', async () => {
    vi.stubEnv('SIGHTLINE_MAX_RESULT_BYTES', String(limit))
    await expectRunnerError(run('endless'), 'query', tooLarge)
    await waitUntil(async () => big.open.size === 0, 10_000)
  })

  it('refuses an answer whose Content-Length is over the limit without waiting for its body', async () => {
    vi.stubEnv('SIGHTLINE_MAX_RESULT_BYTES', String(limit))
    await expectRunnerError(run('declared'), 'query', tooLarge)
    await waitUntil(async () => big.open.size === 0, 10_000)
  })

  it('counts a compressed answer by its decompressed size', async () => {
    vi.stubEnv('SIGHTLINE_MAX_RESULT_BYTES', String(limit))
    await expectRunnerError(run('bomb'), 'query', tooLarge)
  })

  it('counts all pages of a run against one limit', async () => {
    vi.stubEnv('SIGHTLINE_MAX_RESULT_BYTES', String(limit))
    await expectRunnerError(run('pages', { path: 'rows', pagination: { type: 'url', path: 'next' } }), 'query', tooLarge)
    vi.stubEnv('SIGHTLINE_MAX_RESULT_BYTES', String(1024 * 1024))
    expect((await collect(await run('pages', { path: 'rows', fields: ['page'], pagination: { type: 'url', path: 'next' } }))).rows).toEqual([[1], [2], [3]])
  })
})
