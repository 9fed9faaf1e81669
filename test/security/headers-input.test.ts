import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Input PostgreSQL or a parser cannot take is refused (or, for search, dropped) before it gets there: NUL
 * characters, JSON nested thousands of levels deep; and form posts whose Origin is `null` or no address at all.
 */
let t: TestApp
let admin: Client
let member: Client
let sourceId: number
let queryId: number
let tableId: number

const answer = async (res: Response) => ({ status: res.status, body: await res.json() })
const NUL = { status: 400, body: { message: 'Text must not contain NUL characters.' } }
const TOO_DEEP = { status: 400, body: { message: 'The request body is nested too deeply (at most 64 levels).' } }

/** A JSON body as text, sent as the browser's scripts send it (session cookie and CSRF header). */
const postText = (client: Client, path: string, text: string) =>
  t.app.request(path, {
    method: 'POST', body: text,
    headers: { 'content-type': 'application/json', cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': client.csrf },
  })

beforeAll(async () => {
  t = await createTestApp({ executionWaitMs: 1 })
  admin = await setUp(t.app)
  await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })
  member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
  sourceId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  const query = await (await member.post('/api/queries', { data_source_id: sourceId, query: 'select 1 as n', name: 'Nul search' })).json()
  queryId = query.id
  tableId = query.visualizations[0].id
})
afterAll(() => t.close())

describe('NUL characters', () => {
  it('drops them from search text and tags, which then match as if they were not there', async () => {
    for (const q of ['%00', 'nul%00', 'n%00ul', '%00%00']) {
      const res = await member.get(`/api/queries?q=${q}`)
      expect(res.status, q).toBe(200)
    }
    const found = await (await member.get('/api/queries?q=Nul%00')).json()
    expect(found.results.map((r: { id: number }) => r.id)).toEqual([queryId])
    expect((await member.get('/api/queries?tags=a%00b')).status).toBe(200)
    expect((await member.get('/queries?q=n%00ul')).status).toBe(200)
    expect((await admin.get('/api/users?q=mo%00')).status).toBe(200)
    expect((await admin.get('/users?q=mo%00')).status).toBe(200)
  })

  it('refuses them in ad-hoc query text and in anything saved, with 400', async () => {
    expect(await answer(await member.post('/api/query_results', { data_source_id: sourceId, query: 'select \u0000' }))).toEqual(NUL)
    expect(await answer(await member.post('/api/query_snippets', { trigger: 'nul', snippet: 'select 1', description: 'a\u0000' }))).toEqual(NUL)
    expect(await answer(await member.post(`/api/visualizations/${tableId}`, { options: { '\u0000': 1 } }))).toEqual(NUL)
    expect(await answer(await member.post('/api/events', [{ action: 'view', object_type: 'page', note: '\u0000' }]))).toEqual(NUL)
    expect(await answer(await admin.post('/api/data_sources', { name: 'N\u0000', type: 'pg', options: pgOptionsFor(t) }))).toEqual(NUL)
  })

  it('takes a backslash followed by u0000 as the text it is', async () => {
    const res = await member.post('/api/query_snippets', { trigger: 'backslash', snippet: "select '\\u0000'" })
    expect(res.status).toBe(200)
    expect((await res.json()).snippet).toBe("select '\\u0000'")
  })

  it('refuses them in sign-in and setup forms with 400 rather than asking the database', async () => {
    const res = await new Client(t.app).request('POST', '/login', { form: { email: 'mo\u0000@example.com', password: 'mo-password' } })
    expect(res.status).toBe(400)
    expect((await new Client(t.app).request('POST', '/setup', { form: { name: '\u0000' } })).status).toBeLessThan(500)
  })
})

describe('nesting', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

  it('refuses JSON nested more than 64 levels, in options, parameters or any body', async () => {
    expect(await answer(await postText(member, `/api/visualizations/${tableId}`, `{"options":${deep(10_000)}}`))).toEqual(TOO_DEEP)
    expect(await answer(await postText(member, '/api/visualizations', `{"query_id":${queryId},"type":"TABLE","options":${deep(10_000)}}`))).toEqual(TOO_DEEP)
    expect(await answer(await postText(member, `/api/queries/${queryId}`, `{"options":{"parameters":[${deep(10_000)}]}}`))).toEqual(TOO_DEEP)
    expect(await answer(await postText(member, '/api/query_results', `{"query":"select 1","parameters":${deep(10_000)}}`))).toEqual(TOO_DEEP)
    expect(await answer(await postText(member, '/api/events', '['.repeat(10_000) + ']'.repeat(10_000)))).toEqual(TOO_DEEP)
    expect(await answer(await postText(member, `/api/queries/${queryId}/versions/1/restore`, deep(65)))).toEqual(TOO_DEEP)
  })

  it('takes options nested as deep as real ones are', async () => {
    const res = await postText(member, `/api/visualizations/${tableId}`, `{"options":{"columns":[{"name":"n","extra":${deep(40)}}]}}`)
    expect(res.status).toBe(200)
  })
})

describe('Origin of form posts', () => {
  const post = (path: string, origin: string) =>
    new Client(t.app).request('POST', path, { form: { email: 'mo@example.com', password: 'mo-password' }, headers: { origin, host: 'localhost' } })

  it('refuses an Origin that is no address with 403, not a crash', async () => {
    for (const origin of ['http://[', '::::', 'http://localhost:99999', 'not an origin']) {
      for (const path of ['/login', '/logout', '/setup']) expect((await post(path, origin)).status, `${path} ${origin}`).toBe(403)
    }
  })

  it('refuses Origin: null (a sandboxed frame or a data: page) with 403', async () => {
    for (const path of ['/login', '/logout', '/setup']) expect((await post(path, 'null')).status, path).toBe(403)
  })

  it('still takes posts from the site itself, and refuses other sites as before', async () => {
    expect((await post('/login', 'http://localhost')).status).toBe(302)
    expect((await post('/login', 'https://evil.example')).status).toBe(400)
  })
})
