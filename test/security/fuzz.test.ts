import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../../routes/manifest.gen.ts'
import { SESSION_COOKIE } from '../../src/http/index.ts'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Every route of routes/manifest.gen.ts, called with malformed input as a signed-in member, as an admin and anonymously:
 * whatever the input, the answer is a 2xx, 3xx or 4xx, never a 5xx and never a hang. The table is fixed (no
 * randomness), so a failure names its route and input and comes back on every run; about 950 calls in all.
 */

type Role = 'admin' | 'member' | 'anonymous'

interface Endpoint {
  method: string
  /** Hono's pattern, e.g. /api/queries/:id{[0-9]+}/results/:file */
  pattern: string
}

interface Call {
  role: Role
  path: string
  body?: string
  contentType?: string
  headers?: Record<string, string>
}

/** The routes as Hono lists them, mount path joined, each once; deletions last so the fixtures live long. */
function endpoints(): Endpoint[] {
  const seen = new Map<string, Endpoint>()
  for (const [mount, app] of routes) {
    for (const route of app.routes) {
      const pattern = (mount === '/' ? '' : mount) + (route.path === '/' && mount !== '/' ? '' : route.path)
      seen.set(`${route.method} ${pattern}`, { method: route.method, pattern })
    }
  }
  return [...seen.values()].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
}

const PARAM = /:(\w+)(\{[^}]*\})?/g

/** Path values that name nothing or cannot be decoded; each route gets three of them, in turn, as each role. */
const MALFORMED_PARAMS = ['abc', '-1', '99999999999999999999', '%00', '..%2f', '%E0%A4%A']

/** Sent as admin and member in turn: NUL in search text and tags, numbers past any page, repeated and odd values. */
const QUERY_STRINGS = [
  '?q=a%00b&tags=a%00b&order=%00',
  '?q=a%00b&q=second&tags=%00&tags[]=x&tags[]=%00',
  '?q=%00&page=99999999999999999999&page_size=99999999999999999999',
  `?q=${'word%20'.repeat(500)}&page=1e400&page_size=-1&order=-&refresh=%00&id=abc&id=1&org_slug=%00&disabled=maybe&pending=%00`,
]

const nested = (depth: number, open: string, close: string, inner = '1') => open.repeat(depth) + inner + close.repeat(depth)

/** Bodies of every wrong shape; {{…}} is replaced by a real id so the call gets past lookups to the parsing. */
const BODIES: { body: string; contentType?: string }[] = [
  { body: '{' },
  { body: '"a text"' },
  { body: '[]' },
  { body: 'null' },
  { body: '12' },
  { body: nested(10_000, '[', ']') },
  { body: `{"options":${nested(10_000, '{"a":', '}')},"parameters":${nested(10_000, '[', ']')},"query_id":{{query}},"type":"TABLE"}` },
  {
    body: JSON.stringify({
      name: [], query: {}, options: 'x', data_source_id: 'abc', query_id: -1, type: 5, trigger: {}, snippet: [], description: 7,
      tags: 'x', schedule: 'x', user_id: 'x', view_only: 'yes', email: 5, password: [], group_ids: 'x', max_age: 'abc',
      parameters: 'x', is_draft: 'x', version: 'x', latest_query_data_id: {}, apply_auto_limit: 'x', action: [], object_type: {},
    }),
  },
  {
    body: JSON.stringify({
      name: 'a\u0000b', query: 'select \u0000', trigger: 'nul\u0000', snippet: 'select \u0000', description: '\u0000',
      options: { '\u0000': '\u0000', parameters: [{ name: '\u0000', type: 'text', value: '\u0000' }] }, data_source_id: '{{source}}',
      query_id: '{{query}}', type: 'TABLE', tags: ['\u0000'], email: '\u0000@example.com', user_id: '{{member}}', parameters: { '\u0000': '\u0000' },
      action: '\u0000', object_type: '\u0000', object_id: '\u0000',
    }),
  },
  { body: JSON.stringify({ query: 'x'.repeat(3_000_000), name: 'big', data_source_id: '{{source}}', trigger: 'big', snippet: 'x' }) },
  { body: 'name=%00&email=%00&password=%00&org_name=%00&remember=%00', contentType: 'application/x-www-form-urlencoded' },
  { body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--y--', contentType: 'multipart/form-data; boundary=x' },
]

/** Form posts (pages): origins a browser would never send for this site, malformed ones included. */
const ORIGINS = ['null', 'http://[', '::::', 'https://evil.example', 'http://localhost:99999']

let t: TestApp
let ids: Record<string, number | string>
const clients = new Map<Role, Client>()
const credentials = { admin: ['ada@example.com', 'correct horse'], member: ['mo@example.com', 'mo-password'] }

beforeAll(async () => {
  // a run request waits for a worker no test starts: answer with the job at once
  t = await createTestApp({ executionWaitMs: 1 })
  const admin = await setUp(t.app)
  const member = await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })
  clients.set('admin', admin)
  clients.set('member', (await signInAs(t.app, 'mo@example.com', 'mo-password')).client)
  clients.set('anonymous', new Client(t.app))
  const source = await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()
  const query = await (await clients.get('member')!.post('/api/queries', { data_source_id: source.id, query: 'select 1 as n', name: 'One' })).json()
  const snippet = await (await clients.get('member')!.post('/api/query_snippets', { trigger: 'one', snippet: 'select 1' })).json()
  const [group] = await t.db.sql<{ id: number }[]>`select id from groups where name = 'default'`
  ids = {
    query: query.id, visualization: query.visualizations[0].id, source: source.id, snippet: snippet.id, group: group.id,
    member: member.id, version: 1,
  }
})
afterAll(() => t.close())

/** A real value for a path parameter, so malformed bodies reach the parsers behind the lookups. */
function realParam(pattern: string, name: string): string {
  if (name === 'dsId') return String(ids.source)
  if (name === 'userId') return String(ids.member)
  if (name === 'version') return String(ids.version)
  if (name === 'file') return pattern.startsWith('/avatar') ? 'x.svg' : pattern.includes('query_results') ? `${ids.query}.json` : 'results.csv'
  if (name === 'jobId') return '00000000-0000-0000-0000-000000000000'
  if (name === 'dropdownId') return String(ids.query)
  if (name !== 'id') return 'public'
  const owner: [string, keyof typeof ids][] = [
    ['/api/data_sources', 'source'], ['/data_sources', 'source'], ['/api/databricks', 'source'], ['/api/groups', 'group'],
    ['/groups', 'group'], ['/api/users', 'member'], ['/users', 'member'], ['/api/query_snippets', 'snippet'],
    ['/query_snippets', 'snippet'], ['/api/visualizations', 'visualization'], ['/api/jobs', 'query'],
  ]
  return String(ids[owner.find(([prefix]) => pattern.startsWith(`${prefix}/`))?.[1] ?? 'query'])
}

const pathWith = (pattern: string, value: (name: string) => string) => pattern.replace(PARAM, (_, name: string) => value(name))

const withIds = (body: string) => body.replace(/"?\{\{(\w+)\}\}"?/g, (_, name: string) => String(ids[name]))

const ROLES: Role[] = ['admin', 'member', 'anonymous']

/** The calls for one route: malformed path values, then malformed query strings or bodies on a real path. */
function callsFor(e: Endpoint, index: number): Call[] {
  const calls: Call[] = []
  const realPath = pathWith(e.pattern, (name) => realParam(e.pattern, name))
  const isForm = !e.pattern.startsWith('/api/') && e.method === 'POST'
  if (e.pattern.includes(':')) {
    for (let i = 0; i < 3; i++) {
      const value = MALFORMED_PARAMS[(index + i) % MALFORMED_PARAMS.length]
      calls.push({ role: ROLES[i], path: pathWith(e.pattern, () => value), body: e.method === 'GET' ? undefined : '{}' })
    }
  }
  calls.push({ role: 'anonymous', path: realPath, headers: { authorization: 'Key %00', cookie: `${SESSION_COOKIE}=%00%ff; csrf_token=%00` } })
  if (e.method === 'GET') {
    QUERY_STRINGS.forEach((query, i) => calls.push({ role: ROLES[i % 2], path: realPath + query }))
    calls.push({ role: 'anonymous', path: realPath + QUERY_STRINGS[0] })
    return calls
  }
  // a deletion, or an action on a user that takes no input, reads no body: one that is not JSON shows it is not read
  const readsNoBody = e.method === 'DELETE' || /^\/api\/users\/:id\/(disable|invite|reset_password|regenerate_api_key)$/.test(e.pattern)
  const bodies = readsNoBody ? BODIES.slice(0, 1) : BODIES
  bodies.forEach(({ body, contentType }, i) => calls.push({ role: ROLES[i % 2], path: realPath, body: withIds(body), contentType }))
  if (isForm) ORIGINS.forEach((origin, i) => calls.push({ role: ROLES[i % 3], path: realPath, body: 'a=b', contentType: 'application/x-www-form-urlencoded', headers: { origin, host: 'localhost' } }))
  return calls
}

/** Signed-in roles stay signed in: a sign-out route (or a session ended by a call) is followed by a new sign-in. */
async function clientFor(role: Role): Promise<Client> {
  const client = clients.get(role)!
  if (role === 'anonymous' || client.cookies.has(SESSION_COOKIE)) return client
  const [email, password] = credentials[role]
  // the table itself disables the member (an admin's POST /api/users/:id/disable): enabled again, so the routes after
  // it are still tried by a signed-in member
  await t.db.sql`update users set disabled_at = null where email = ${email}`
  const fresh = (await signInAs(t.app, email, password)).client
  if (!fresh.cookies.has(SESSION_COOKIE)) throw new Error(`${role} could not sign in again`)
  clients.set(role, fresh)
  return fresh
}

const HANG_MS = 20_000

async function send(method: string, call: Call): Promise<number> {
  const client = await clientFor(call.role)
  const headers: Record<string, string> = { ...call.headers }
  if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json'
  let timer: NodeJS.Timeout | undefined
  const hang = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('no answer')), HANG_MS) })
  try {
    const res = await Promise.race([rawRequest(client, method, call, headers), hang])
    // a call that ended this role's session (an admin ending the member's sessions, a sign-out) sends it to sign in
    // again before its next call, so later routes are still tried signed in
    // (SCIM answers 401 to anyone without its own token, signed in or not)
    const toLogin = (res.status === 401 && !call.path.startsWith('/api/scim/')) || (res.status === 302 && /^\/login\b/.test(res.headers.get('location') ?? ''))
    if (call.role !== 'anonymous' && toLogin && !call.headers?.cookie) client.cookies.delete(SESSION_COOKIE)
    return res.status
  } finally {
    clearTimeout(timer)
  }
}

/** Like Client.request, but with a body sent as is (invalid JSON, forms) and the client's cookies kept up to date. */
async function rawRequest(client: Client, method: string, call: Call, headers: Record<string, string>): Promise<Response> {
  const all: Record<string, string> = { ...headers }
  if (client.cookies.size && !headers.cookie) all.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  if (method !== 'GET' && call.path.startsWith('/api/') && client.csrf) all['x-csrf-token'] = client.csrf
  const res = await t.app.request(call.path, { method, headers: all, body: call.body })
  for (const cookie of res.headers.getSetCookie()) {
    const [pair, ...attrs] = cookie.split(';')
    const [name, ...value] = pair.split('=')
    if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value.join('=') === '') client.cookies.delete(name.trim())
    else client.cookies.set(name.trim(), value.join('='))
  }
  await res.arrayBuffer()
  return res
}

describe('every route answers malformed input below 500', () => {
  const table = endpoints()

  it('covers the whole route table', () => {
    expect(table.length).toBeGreaterThan(90)
    // a budget that keeps the run short: about 10 calls per route on average
    expect(table.reduce((n, e, i) => n + callsFor(e, i).length, 0)).toBeLessThan(10 * table.length)
  })

  it.each(table.map((e, i) => [`${e.method} ${e.pattern}`, e, i] as const))('%s', async (_, e, index) => {
    const failures: string[] = []
    for (const call of callsFor(e, index)) {
      const status = await send(e.method, call).catch((error: Error) => `${error.message}`)
      if (typeof status === 'string' || status >= 500) {
        failures.push(`${call.role} ${e.method} ${call.path.slice(0, 120)} ${call.body?.slice(0, 80) ?? ''} ${JSON.stringify(call.headers ?? {})} -> ${status}`)
      }
    }
    expect(failures).toEqual([])
  }, 120_000)
})
