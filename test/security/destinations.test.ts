import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliver } from '../../src/destinations/index.ts'
import type { AlertNotification } from '../../src/destinations/index.ts'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Destinations hold addresses with tokens and passwords: members may list their names (to subscribe alerts) but never
 * read, create or change them, nor learn a secret from any answer. And where a notification goes is the admin's
 * choice alone: nothing an alert or a query carries (names, options, result rows, metadata) can point it elsewhere.
 */
let t: TestApp
let admin: Client
let member: Client
let memberKey: string
let orgId: number
let destinationId: number
/** Two real servers on 127.0.0.1: the admin's webhook, and one a query would like to reach instead. */
const servers: http.Server[] = []
const hits: Record<'hook' | 'elsewhere', { url: string; body: string }[]> = { hook: [], elsewhere: [] }
let hookUrl = ''
let elsewhereUrl = ''
const SECRET = 'tok3n-do-not-leak'

async function listen(name: 'hook' | 'elsewhere', answer: (res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      hits[name].push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') })
      answer(res)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  memberKey = (await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })).apiKey
  member = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  ;[{ id: orgId }] = await t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
  elsewhereUrl = await listen('elsewhere', (res) => res.writeHead(200).end('elsewhere'))
  hookUrl = `${await listen('hook', (res) => res.writeHead(200).end('hook'))}/hook?token=${SECRET}`
  const created = await (await admin.post('/api/destinations', { name: 'Ops hook', type: 'webhook', options: { url: hookUrl, username: 'ops', password: SECRET } })).json()
  destinationId = created.id
})
afterAll(async () => {
  await t.close()
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
})

describe('a member', () => {
  it('lists names and types only, and can read, create, change, test or delete nothing', async () => {
    const byKey = (path: string, method = 'GET', body?: unknown) => t.app.request(path, {
      method, headers: { authorization: `Key ${memberKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    })
    for (const res of [await member.get('/api/destinations'), await byKey('/api/destinations')]) {
      const text = await res.text()
      expect(res.status).toBe(200)
      expect(JSON.parse(text)).toEqual([{ id: destinationId, name: 'Ops hook', type: 'webhook', icon: 'fa-bolt' }])
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain('127.0.0.1')
    }
    const attempts: [string, string, unknown?][] = [
      ['GET', `/api/destinations/${destinationId}`],
      ['GET', '/api/destinations/types'],
      ['POST', '/api/destinations', { name: 'Mine', type: 'webhook', options: { url: elsewhereUrl } }],
      ['POST', `/api/destinations/${destinationId}`, { name: 'Ops hook', type: 'webhook', options: { url: elsewhereUrl } }],
      ['POST', `/api/destinations/${destinationId}/test`],
      ['DELETE', `/api/destinations/${destinationId}`],
    ]
    for (const [method, path, body] of attempts) {
      for (const res of [await member.request(method, path, { json: body }), await byKey(path, method, body)]) {
        expect([method, path, res.status]).toEqual([method, path, 403])
        expect(await res.text()).not.toContain(SECRET)
      }
    }
    for (const path of ['/destinations', `/destinations/${destinationId}`]) {
      const res = await member.get(path)
      expect(res.status).toBe(403)
      expect(await res.text()).not.toContain(SECRET)
    }
    expect(hits.hook).toHaveLength(0)
    expect(hits.elsewhere).toHaveLength(0)
    const [row] = await t.db.sql<{ name: string; secrets: string }[]>`select name, secrets from destinations where id = ${destinationId}`
    expect(row.name).toBe('Ops hook')
    expect(row.secrets).not.toContain(SECRET)
  })

  it('and an admin never gets the secrets back either: not from the API, not in the page', async () => {
    const one = await (await admin.get(`/api/destinations/${destinationId}`)).text()
    expect(one).not.toContain(SECRET)
    const page = await (await admin.get(`/destinations/${destinationId}`)).text()
    expect(page).not.toContain(SECRET)
    expect(page).not.toContain('127.0.0.1')
  })
})

describe('where a notification goes', () => {
  it('is the destination\'s stored address, whatever the alert, the query or its result say', async () => {
    const lure = `${elsewhereUrl}/stolen`
    const n: AlertNotification = {
      alert: { id: 1, name: lure, state: 'triggered', url: lure, options: { url: lure, webhook_url: lure, column: 'url', op: '==', value: lure, custom_body: '{{QUERY_RESULT_VALUE}}' } },
      query: { id: 2, name: lure, url: lure },
      value: lure,
      result: { columns: [{ name: 'url', friendly_name: 'url', type: 'string' }], rows: [{ url: lure }] },
      metadata: { url: lure },
      dedupKey: '1_2',
    }
    const answer = await deliver(t.deps, orgId, { kind: 'destination', destinationId }, n)
    expect(answer.status).toBe(200)
    expect(hits.hook).toHaveLength(1)
    expect(hits.hook[0].url).toBe(`/hook?token=${SECRET}`)
    expect(hits.elsewhere).toHaveLength(0)
  })

  it('does not follow a redirect the service answers with', async () => {
    const redirecting = await listen('hook', (res) => res.writeHead(302, { Location: `${elsewhereUrl}/redirected` }).end())
    const created = await (await admin.post('/api/destinations', { name: 'Moved hook', type: 'webhook', options: { url: `${redirecting}/x` } })).json()
    const n: AlertNotification = {
      alert: { id: 1, name: 'A', state: 'ok', url: 'http://s.test/alerts/1', options: {} },
      query: { id: 2, name: 'Q', url: 'http://s.test/queries/2' }, value: null, result: { columns: [], rows: [] }, metadata: {}, dedupKey: '1_2',
    }
    await expect(deliver(t.deps, orgId, { kind: 'destination', destinationId: created.id }, n)).rejects.toMatchObject({ status: 302, retryable: false })
    expect(hits.elsewhere).toHaveLength(0)
  })

  it('is only ever an http(s) address', async () => {
    for (const url of ['file:///etc/passwd', 'data:text/plain,hi', 'gopher://127.0.0.1:25/x', 'javascript:alert(1)']) {
      const res = await admin.post('/api/destinations', { name: `Bad ${url}`, type: 'webhook', options: { url } })
      expect([url, res.status]).toEqual([url, 400])
    }
  })
})
