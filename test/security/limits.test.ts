import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * Size limits: no request body over SIGHTLINE_MAX_BODY_BYTES (1 MiB by default) is read, and no stored text or
 * options grow past their field's limit, so one member cannot make every list answer megabytes long.
 */
let t: TestApp
let admin: Client
let member: Client
let memberId: number
let sourceId: number
let queryId: number
let tableId: number

const answer = async (res: Response) => ({ status: res.status, body: await res.json() })
const bad = (message: string) => ({ status: 400, body: { message } })
const MIB = 1_048_576

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  memberId = (await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })).id
  member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
  sourceId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
  const query = await (await member.post('/api/queries', { data_source_id: sourceId, query: 'select 1 as n', name: 'One' })).json()
  queryId = query.id
  tableId = query.visualizations[0].id
})
afterAll(() => t.close())

describe('request bodies', () => {
  it('reads SIGHTLINE_MAX_BODY_BYTES, 1 MiB when unset', () => {
    expect(loadConfig({}).maxBodyBytes).toBe(MIB)
    expect(loadConfig({ SIGHTLINE_MAX_BODY_BYTES: '2048' }).maxBodyBytes).toBe(2048)
    expect(() => loadConfig({ SIGHTLINE_MAX_BODY_BYTES: 'lots' })).toThrow('SIGHTLINE_MAX_BODY_BYTES must be a whole number above 0')
  })

  it('refuses an API body over the limit with 413 and a JSON message, before anything is stored', async () => {
    const res = await member.post('/api/queries', { data_source_id: sourceId, query: 'x'.repeat(MIB), name: 'Huge' })
    expect(await answer(res)).toEqual({ status: 413, body: { message: 'The request body is too large (at most 1,048,576 bytes).' } })
    const [{ count }] = await t.db.sql<{ count: number }[]>`select count(*)::int as count from queries where name = 'Huge'`
    expect(count).toBe(0)
  })

  it('refuses a body sent without a length (chunked) as soon as it passes the limit', async () => {
    const chunk = new TextEncoder().encode(`"${'x'.repeat(64 * 1024)}`)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 2 MiB at most: a server that read on would still get an end
        if (sent >= 2 * MIB) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const res = await t.app.request('/api/query_snippets', {
      method: 'POST', body, duplex: 'half',
      headers: { 'content-type': 'application/json', cookie: [...member.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': member.csrf },
    } as RequestInit)
    expect(await answer(res)).toEqual({ status: 413, body: { message: 'The request body is too large (at most 1,048,576 bytes).' } })
  })

  it('answers a form over the limit with a 413 page that says so', async () => {
    const res = await new Client(t.app).request('POST', '/login', { form: { email: 'mo@example.com', password: 'p'.repeat(MIB) } })
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(await res.text()).toContain('What you sent is too large for Sightline to accept. Please send less and try again.')
  })

  it('reads a body just under the limit (and its fields are then checked one by one)', async () => {
    const res = await member.post('/api/queries', { data_source_id: sourceId, query: 'x'.repeat(MIB - 100), name: 'Almost' })
    expect(await answer(res)).toEqual(bad('Query text is too long (at most 100,000 characters).'))
  })
})

describe('queries', () => {
  const create = (body: Record<string, unknown>) => member.post('/api/queries', { data_source_id: sourceId, query: 'select 1', ...body })

  it('keeps query text to 100,000 characters, on create, save and ad-hoc runs alike', async () => {
    const message = 'Query text is too long (at most 100,000 characters).'
    expect(await answer(await create({ query: 'x'.repeat(100_001) }))).toEqual(bad(message))
    expect(await answer(await member.post(`/api/queries/${queryId}`, { query: 'x'.repeat(100_001) }))).toEqual(bad(message))
    expect(await answer(await member.post('/api/query_results', { data_source_id: sourceId, query: 'x'.repeat(100_001) }))).toEqual(bad(message))
    expect((await create({ query: `select 1 -- ${'x'.repeat(100_000 - 12)}` })).status).toBe(200)
  })

  it('keeps names, descriptions, tags and parameter definitions within their limits', async () => {
    expect(await answer(await create({ name: 'n'.repeat(256) }))).toEqual(bad('Name: This field is too long (at most 255 characters).'))
    expect(await answer(await create({ description: 'd'.repeat(4097) }))).toEqual(bad('description is too long (at most 4096 characters).'))
    expect(await answer(await create({ tags: ['t'.repeat(256)] }))).toEqual(bad('tags: A tag is too long (at most 255 characters).'))
    expect(await answer(await create({ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) }))).toEqual(bad('A query has at most 100 tags.'))
    const parameters = Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, type: 'text', title: `P ${i}` }))
    expect(await answer(await create({ options: { parameters } }))).toEqual(bad('A query has at most 100 parameters.'))
    const enumOptions = 'value\n'.repeat(20_000)
    expect(await answer(await create({ options: { parameters: [{ name: 'p', type: 'enum', enumOptions }] } })))
      .toEqual(bad('Query options are too large (at most 100,000 bytes as JSON).'))
    expect((await create({ name: 'n'.repeat(255), tags: ['t'.repeat(255)], options: { parameters: parameters.slice(0, 100) } })).status).toBe(200)
  })

  it('still answers lists with each query\'s text, as the established tool\'s clients read it there', async () => {
    const list = await (await member.get('/api/queries?page_size=250')).json()
    expect(list.results.find((q: { id: number }) => q.id === queryId).query).toBe('select 1 as n')
  })
})

describe('snippets, visualizations, data sources, users and events', () => {
  it('keeps a snippet\'s text and description within their limits', async () => {
    expect(await answer(await member.post('/api/query_snippets', { trigger: 'big', snippet: 'x'.repeat(100_001) })))
      .toEqual(bad('Snippet is too long (at most 100,000 characters).'))
    expect(await answer(await member.post('/api/query_snippets', { trigger: 'big', snippet: 'x', description: 'd'.repeat(4097) })))
      .toEqual(bad('Description is too long (at most 4,096 characters).'))
  })

  it('keeps a visualization\'s options to 500,000 bytes of JSON and its description to 4,096 characters', async () => {
    const columns = Array.from({ length: 7_000 }, (_, i) => ({ name: `column_${i}`, title: `A column with a long title, number ${i}`, visible: true }))
    const message = 'Visualization options are too large (at most 500,000 bytes as JSON).'
    expect(await answer(await member.post(`/api/visualizations/${tableId}`, { options: { columns } }))).toEqual(bad(message))
    expect(await answer(await member.post('/api/visualizations', { query_id: queryId, type: 'TABLE', options: { columns } }))).toEqual(bad(message))
    expect(await answer(await member.post(`/api/visualizations/${tableId}`, { description: 'd'.repeat(4097) })))
      .toEqual(bad('Description is too long (at most 4,096 characters).'))
    expect((await member.post(`/api/visualizations/${tableId}`, { options: { columns: columns.slice(0, 100) } })).status).toBe(200)
  })

  it('keeps a data source\'s name to 255 characters and its options to 100,000 bytes of JSON', async () => {
    expect(await answer(await admin.post('/api/data_sources', { name: 'n'.repeat(256), type: 'pg', options: pgOptionsFor(t) })))
      .toEqual(bad('Name is too long (at most 255 characters).'))
    expect(await answer(await admin.post(`/api/data_sources/${sourceId}`, { name: 'Warehouse', type: 'pg', options: { ...pgOptionsFor(t), host: 'h'.repeat(100_001) } })))
      .toEqual(bad('Data source options are too large (at most 100,000 bytes as JSON).'))
  })

  it('keeps a person\'s name to 200 characters', async () => {
    expect(await answer(await member.post(`/api/users/${memberId}`, { name: 'n'.repeat(201) })))
      .toEqual(bad('Name: This field is too long (at most 200 characters).'))
  })

  it('keeps a reported event to 10,000 bytes', async () => {
    const res = await member.post('/api/events', [{ action: 'view', object_type: 'page', padding: ' '.repeat(10_000) }])
    expect(await answer(res)).toEqual(bad('Events must be a list of at most 60 objects with action and object_type, each at most 10,000 bytes as JSON.'))
  })
})
