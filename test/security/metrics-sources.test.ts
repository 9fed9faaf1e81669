import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { influxdbRunner, prometheusRunner } from '../../src/runners/index.ts'
import { collect, expectRunnerError, opts } from '../runners/support.ts'

// Attacks on the Prometheus and InfluxDB sources through their query text: the text fills in the API's parameters
// and nothing else, so it can neither aim the request at another host or path nor add a parameter the runner sets,
// and a redirect cannot lead out of the configured origin. Local servers play the engines and the other host.

interface Hit { method: string; host: string; path: string; body: string }

async function serve(handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void) {
  const hits: Hit[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      hits.push({ method: req.method!, host: req.headers.host ?? '', path: req.url ?? '', body })
      handle(req, res, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    hits, origin: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
type Served = Awaited<ReturnType<typeof serve>>

const json = (res: http.ServerResponse, value: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

let elsewhere: Served
let prometheus: Served
let influx: Served

beforeAll(async () => {
  elsewhere = await serve((_req, res) => json(res, { status: 'success', data: { resultType: 'vector', result: [] }, results: [] }))
  prometheus = await serve((req, res) => {
    const u = new URL(req.url!, 'http://x')
    if (u.searchParams.get('query') === 'redirect') {
      res.writeHead(302, { location: `${elsewhere.origin}/api/v1/query?${u.searchParams}` })
      return res.end()
    }
    json(res, { status: 'success', data: { resultType: 'vector', result: [{ metric: { job: 'x' }, value: [1700000000, '1'] }] } })
  })
  influx = await serve((_req, res) => json(res, { results: [{ statement_id: 0, series: [{ name: 'm', columns: ['time', 'v'], values: [['2024-01-01T00:00:00Z', 1]] }] }] }))
})
afterAll(async () => {
  await Promise.all([elsewhere.close(), prometheus.close(), influx.close()])
})

describe('Prometheus query text', () => {
  const config = () => ({ url: `${prometheus.origin}/prom` })
  const attacks = () => [
    `${elsewhere.origin}/steal`,
    `@${elsewhere.host}/steal`,
    '../../api/v1/admin/tsdb/delete_series?match[]=up',
    'query=up&step=1&start=0&end=1&x=#/../../api/v1/admin/tsdb/snapshot',
    'query=up/../../../api/v1/admin/tsdb/clean_tombstones',
    `query=up%0d%0aHost:%20${elsewhere.host}%0d%0a%0d%0aGET%20/steal%20HTTP/1.1`,
    'query=up%20HTTP/1.1\r\nHost: elsewhere\r\n\r\nPOST /api/v1/admin/tsdb/snapshot',
    'query=up&timeout=5s&query=down&%2e%2e=%2f',
  ]

  it('only ever reaches the configured API\'s query endpoints, on the configured host', async () => {
    for (const text of attacks()) await prometheusRunner.run(config(), text, opts()).then(collect)
    expect(prometheus.hits.length).toBe(attacks().length)
    for (const hit of prometheus.hits) {
      expect(hit.method).toBe('GET')
      expect(hit.host).toBe(prometheus.host)
      expect(hit.path).toMatch(/^\/prom\/api\/v1\/query(_range)?\?[^#\s]*$/)
      expect(new URL(hit.path, 'http://x').pathname).toMatch(/^\/prom\/api\/v1\/query(_range)?$/)
    }
    // the text arrives as the PromQL it is, to be refused by Prometheus, not as an address
    expect(new URL(prometheus.hits[0].path, 'http://x').searchParams.get('query')).toBe(`${elsewhere.origin}/steal`)
    expect(elsewhere.hits).toEqual([])
  })

  it('refuses a redirect out of the configured origin and never asks the other host', async () => {
    await expectRunnerError(prometheusRunner.run(config(), 'redirect', opts()), 'query', `Refused a redirect out of the Base URL's origin (${prometheus.origin}) to ${elsewhere.origin}.`)
    expect(elsewhere.hits).toEqual([])
  })
})

describe('InfluxQL query text', () => {
  const config = () => ({ url: `influxdb://reader:secret@${influx.host}/metrics` })

  it('travels in the request body, so it cannot change the database, the user or the address', async () => {
    const texts = [
      'SHOW DATABASES&db=_internal&u=admin&p=admin',
      `SELECT * FROM m HTTP/1.1\r\nHost: ${elsewhere.host}\r\n\r\nGET /steal`,
      'SELECT * FROM m; DROP DATABASE metrics&chunked=false',
    ]
    for (const text of texts) await collect(await influxdbRunner.run(config(), text, opts()))
    expect(influx.hits.map((h) => [h.method, h.host, h.path])).toEqual(texts.map(() => ['POST', influx.host, '/query']))
    influx.hits.forEach((hit, i) => {
      const form = new URLSearchParams(hit.body)
      expect(form.getAll('q')).toEqual([texts[i]])
      expect(form.getAll('db')).toEqual(['metrics'])
      expect(form.getAll('chunked')).toEqual(['true'])
      expect(form.has('u') || form.has('p')).toBe(false)
    })
    expect(elsewhere.hits).toEqual([])
  })
})
