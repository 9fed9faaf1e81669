import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** Creating, renaming and deleting groups, and who sees which (spec 3 §6 "Group rules", reference §2.5). */
let t: TestApp
let admin: Client
let adminId: number
let member: Client
let memberId: number
let anonymous: Client
let builtin: { admin: number; default: number }

const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message
const groupNames = async (client: Client) => ((await (await client.get('/api/groups')).json()) as { name: string }[]).map((g) => g.name)

/** A request whose body is the given text as is, sent with the client's session and CSRF token. */
const rawPost = (client: Client, path: string, text: string) => t.app.request(path, {
  method: 'POST',
  headers: {
    'content-type': 'application/json', 'x-csrf-token': client.csrf,
    cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  },
  body: text,
})

async function newGroup(name: string): Promise<{ id: number; name: string }> {
  const res = await admin.post('/api/groups', { name })
  expect(res.status).toBe(200)
  return res.json()
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  adminId = (await (await admin.get('/api/session')).json()).user.id
  memberId = (await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })).id
  member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
  anonymous = new Client(t.app)
  const groups = await t.db.sql<{ id: number; name: string }[]>`select id, name from groups where type = 'builtin'`
  builtin = { admin: groups.find((g) => g.name === 'admin')!.id, default: groups.find((g) => g.name === 'default')!.id }
})
afterAll(() => t.close())

describe('POST /api/groups', () => {
  it('creates a regular group with the default permissions, its name trimmed, and records it', async () => {
    const res = await admin.post('/api/groups', { name: '  Finance  ' })
    expect(res.status).toBe(200)
    const group = await res.json()
    expect(group).toMatchObject({ id: expect.any(Number), name: 'Finance', type: 'regular', created_at: expect.any(String) })
    expect(group.permissions).toContain('view_query')
    expect(group.permissions).not.toContain('admin')
    expect(await groupNames(admin)).toContain('Finance')
    expect(await (await admin.get(`/api/groups/${group.id}/members`)).json()).toEqual([])
    const [event] = await t.db.sql`select * from events where action = 'create' and object_type = 'group' order by id desc limit 1`
    expect(event).toMatchObject({ user_id: adminId, object_id: String(group.id) })
  })

  it('is for admins only', async () => {
    let res = await member.post('/api/groups', { name: 'Sneaky' })
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toEqual(expect.any(String))
    res = await anonymous.post('/api/groups', { name: 'Sneaky' })
    expect(res.status).toBe(401)
    expect(await groupNames(admin)).not.toContain('Sneaky')
  })

  it('refuses a missing, blank, mistyped, too long or taken name with a message', async () => {
    const cases: [unknown, number, string][] = [
      [{}, 400, 'Name: This field is required.'],
      [{ name: null }, 400, 'Name: This field is required.'],
      [{ name: '   ' }, 400, 'Name: This field is required.'],
      [{ name: 42 }, 400, 'Name must be text.'],
      [{ name: ['x'] }, 400, 'Name must be text.'],
      [{ name: 'x'.repeat(256) }, 400, 'Name is too long (at most 255 characters).'],
      [[], 400, 'The request body must be a JSON object.'],
      ['Finance', 400, 'The request body must be a JSON object.'],
    ]
    for (const [body, status, message] of cases) {
      const res = await admin.post('/api/groups', body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(await messageOf(res)).toBe(message)
    }
    await newGroup('Taken')
    const res = await admin.post('/api/groups', { name: ' Taken ' })
    expect(res.status).toBe(409)
    expect(await messageOf(res)).toBe('A group with this name already exists.')
    const huge = await admin.post('/api/groups', { name: 'x'.repeat(2_000_000) })
    expect(huge.status).toBeGreaterThanOrEqual(400)
    expect(huge.status).toBeLessThan(500)
    expect(await messageOf(huge)).toEqual(expect.any(String))
  })

  it('refuses malformed JSON', async () => {
    for (const text of ['{"name": ', 'not json', '']) {
      const res = await rawPost(admin, '/api/groups', text)
      expect(res.status, text).toBe(400)
      expect(await messageOf(res)).toEqual(expect.any(String))
    }
    const res = await rawPost(admin, '/api/groups', '{"name": "a\\u0000b"}')
    expect(res.status).toBe(400)
  })
})

describe('POST /api/groups/{id}', () => {
  it('renames a regular group, the new name trimmed, and records it', async () => {
    const group = await newGroup('Ops')
    const res = await admin.post(`/api/groups/${group.id}`, { name: '  Operations ' })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: group.id, name: 'Operations', type: 'regular' })
    expect((await (await admin.get(`/api/groups/${group.id}`)).json()).name).toBe('Operations')
    const [event] = await t.db.sql`select * from events where action = 'edit' and object_type = 'group' order by id desc limit 1`
    expect(event).toMatchObject({ user_id: adminId, object_id: String(group.id) })
  })

  it('ignores a blank or missing name', async () => {
    const group = await newGroup('Steady')
    for (const body of [{ name: '' }, { name: '   ' }, { name: null }, {}]) {
      const res = await admin.post(`/api/groups/${group.id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(200)
      expect((await res.json()).name).toBe('Steady')
    }
  })

  it('refuses to rename a built-in group', async () => {
    for (const id of [builtin.admin, builtin.default]) {
      const res = await admin.post(`/api/groups/${id}`, { name: 'Renamed' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe("Can't modify built-in groups.")
    }
    expect(await groupNames(admin)).toEqual(expect.arrayContaining(['admin', 'default']))
  })

  it('is for admins only, even for a group of their own', async () => {
    const group = await newGroup('Theirs')
    await admin.post(`/api/groups/${group.id}/members`, { user_id: memberId })
    expect((await member.post(`/api/groups/${group.id}`, { name: 'Mine' })).status).toBe(403)
    expect((await anonymous.post(`/api/groups/${group.id}`, { name: 'Mine' })).status).toBe(401)
    expect((await (await admin.get(`/api/groups/${group.id}`)).json()).name).toBe('Theirs')
  })

  it('refuses unknown ids, wrong types, too long and taken names, and malformed JSON', async () => {
    const group = await newGroup('Strict')
    await newGroup('Other')
    const cases: [string, unknown, number, string | undefined][] = [
      ['/api/groups/424242', { name: 'X' }, 404, 'Group not found.'],
      ['/api/groups/abc', { name: 'X' }, 404, undefined],
      [`/api/groups/${group.id}`, { name: 7 }, 400, 'Name must be text.'],
      [`/api/groups/${group.id}`, { name: 'y'.repeat(256) }, 400, 'Name is too long (at most 255 characters).'],
      [`/api/groups/${group.id}`, ['x'], 400, 'The request body must be a JSON object.'],
      [`/api/groups/${group.id}`, { name: 'Other' }, 409, 'A group with this name already exists.'],
    ]
    for (const [path, body, status, message] of cases) {
      const res = await admin.post(path, body)
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status)
      if (message) expect(await messageOf(res)).toBe(message)
      else expect(await messageOf(res)).toEqual(expect.any(String))
    }
    const res = await rawPost(admin, `/api/groups/${group.id}`, '{"name"')
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toEqual(expect.any(String))
    expect((await (await admin.get(`/api/groups/${group.id}`)).json()).name).toBe('Strict')
  })
})

describe('DELETE /api/groups/{id}', () => {
  it('deletes a regular group: members lose what it gave them at once, its data sources stay', async () => {
    const group = await newGroup('Doomed')
    const ds = await (await admin.post('/api/data_sources', { name: 'Kept', type: 'pg', options: { host: 'localhost', dbname: 'x' } })).json()
    expect((await admin.post(`/api/groups/${group.id}/data_sources`, { data_source_id: ds.id })).status).toBe(200)
    await admin.post(`/api/groups/${group.id}/members`, { user_id: memberId })
    expect(await groupNames(member)).toContain('Doomed')
    const res = await admin.request('DELETE', `/api/groups/${group.id}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect((await admin.get(`/api/groups/${group.id}`)).status).toBe(404)
    expect(await groupNames(member)).not.toContain('Doomed') // the signed-in member's cached session followed
    expect((await admin.get(`/api/data_sources/${ds.id}`)).status).toBe(200)
    const [event] = await t.db.sql`select * from events where action = 'delete' and object_type = 'group' order by id desc limit 1`
    expect(event).toMatchObject({ user_id: adminId, object_id: String(group.id) })
  })

  it("refuses built-in groups with 'Cannot delete built-in group'", async () => {
    for (const id of [builtin.admin, builtin.default]) {
      const res = await admin.request('DELETE', `/api/groups/${id}`)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe('Cannot delete built-in group')
    }
    expect(await groupNames(admin)).toEqual(expect.arrayContaining(['admin', 'default']))
  })

  it('is for admins only', async () => {
    const group = await newGroup('Sturdy')
    expect((await member.request('DELETE', `/api/groups/${group.id}`)).status).toBe(403)
    expect((await anonymous.request('DELETE', `/api/groups/${group.id}`)).status).toBe(401)
    expect((await admin.get(`/api/groups/${group.id}`)).status).toBe(200)
  })

  it('answers 404 for an unknown id', async () => {
    for (const path of ['/api/groups/424242', '/api/groups/abc', '/api/groups/-1']) {
      const res = await admin.request('DELETE', path)
      expect(res.status, path).toBe(404)
      expect(await messageOf(res)).toEqual(expect.any(String))
    }
  })
})

describe('who sees which groups', () => {
  it('shows admins every group and others only their own', async () => {
    const group = await newGroup('Private')
    expect(await groupNames(admin)).toEqual(expect.arrayContaining(['admin', 'default', 'Private']))
    const own = await groupNames(member)
    expect(own).toContain('default')
    expect(own).not.toContain('admin')
    expect(own).not.toContain('Private')
    expect((await member.get(`/api/groups/${group.id}`)).status).toBe(403)
    expect((await member.get(`/api/groups/${builtin.admin}`)).status).toBe(403)
    expect((await member.get(`/api/groups/${builtin.default}`)).status).toBe(200)
    expect((await member.get(`/api/groups/${group.id}/members`)).status).toBe(403)
    expect((await member.get(`/api/groups/${group.id}/data_sources`)).status).toBe(403)
    await admin.post(`/api/groups/${group.id}/members`, { user_id: memberId })
    expect((await groupNames(member)).sort()).toEqual([...own, 'Private'].sort())
    expect((await member.get(`/api/groups/${group.id}`)).status).toBe(200)
    expect((await member.get(`/api/groups/${group.id}/data_sources`)).status).toBe(403) // the Data Sources tab is admin only
  })

  it('shows nothing to anonymous callers', async () => {
    for (const path of ['/api/groups', `/api/groups/${builtin.default}`, `/api/groups/${builtin.default}/members`]) {
      expect((await anonymous.get(path)).status, path).toBe(401)
    }
  })
})
