import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** A group's members over the API (spec 3 §7 "Groups", reference §2.5): who may see and change them, and what follows. */
let t: TestApp
let admin: Client
let adminId: number
let bo: { id: number; apiKey: string }
let boClient: Client
let viewer: Client
let viId: number
let groupIds: { admin: number; default: number; readers: number; analysts: number }

const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message
const names = async (res: Response) => ((await res.json()) as { name: string }[]).map((u) => u.name)
const byKey = (key: string, path: string) => t.app.request(path, { headers: { authorization: `Key ${key}` } })

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  adminId = (await (await admin.get('/api/session')).json()).user.id
  bo = await addUser(t, { name: 'Bo Builder', email: 'bo@example.com', password: 'bo-password' })
  boClient = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  viId = (await addUser(t, { name: 'Vi Viewer', email: 'vi@example.com', password: 'vi-password' })).id
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
  const [readers] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${['view_query']}) returning id`
  const [analysts] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Analysts', ${['list_users', 'view_query']}) returning id`
  await t.db.sql`delete from user_groups where user_id = ${viId}`
  await t.db.sql`insert into user_groups (user_id, group_id) values (${viId}, ${readers.id})`
  viewer = (await signInAs(t.app, 'vi@example.com', 'vi-password')).client
  const groups = await t.db.sql<{ id: number; name: string }[]>`select id, name from groups where type = 'builtin'`
  groupIds = {
    admin: groups.find((g) => g.name === 'admin')!.id, default: groups.find((g) => g.name === 'default')!.id,
    readers: readers.id, analysts: analysts.id,
  }
})
afterAll(() => t.close())

describe('GET /api/groups/{id}/members', () => {
  it('lists the members by name, as users with their groups', async () => {
    const res = await admin.get(`/api/groups/${groupIds.default}/members`)
    expect(res.status).toBe(200)
    const members = await res.json()
    expect(members.map((u: { name: string }) => u.name)).toEqual(['Ada Admin', 'Bo Builder'])
    expect(members[0].groups).toEqual([{ id: groupIds.admin, name: 'admin' }, { id: groupIds.default, name: 'default' }])
    expect(members[0]).not.toHaveProperty('api_key')
    expect(await names(await admin.get(`/api/groups/${groupIds.analysts}/members`))).toEqual([])
  })

  it('is for admins and for members who may list users', async () => {
    expect((await boClient.get(`/api/groups/${groupIds.default}/members`)).status).toBe(200) // a member with list_users
    expect((await byKey(bo.apiKey, `/api/groups/${groupIds.default}/members`)).status).toBe(200)
    expect((await boClient.get(`/api/groups/${groupIds.admin}/members`)).status).toBe(403) // not a member
    expect((await viewer.get(`/api/groups/${groupIds.readers}/members`)).status).toBe(403) // a member without list_users
    expect((await new Client(t.app).get(`/api/groups/${groupIds.default}/members`)).status).toBe(401)
  })

  it('answers 404 for a group that does not exist', async () => {
    for (const path of ['/api/groups/424242/members', '/api/groups/abc/members']) {
      const res = await admin.get(path)
      expect(res.status, path).toBe(404)
      expect(await messageOf(res)).toEqual(expect.any(String))
    }
  })
})

describe('POST /api/groups/{id}/members', () => {
  it('adds a user, answers with the user, records it, and their permissions change at once', async () => {
    expect((await viewer.get('/api/users')).status).toBe(403) // no list_users yet
    const res = await admin.post(`/api/groups/${groupIds.analysts}/members`, { user_id: viId })
    expect(res.status).toBe(200)
    const user = await res.json()
    expect(user).toMatchObject({ id: viId, name: 'Vi Viewer', email: 'vi@example.com' })
    expect(user.groups).toEqual([{ id: groupIds.analysts, name: 'Analysts' }, { id: groupIds.readers, name: 'Readers' }])
    expect(await names(await admin.get(`/api/groups/${groupIds.analysts}/members`))).toEqual(['Vi Viewer'])
    expect((await viewer.get('/api/users')).status).toBe(200) // the cached session picked up the new group
    const [event] = await t.db.sql`select * from events where action = 'add_member' order by id desc limit 1`
    expect(event).toMatchObject({ user_id: adminId, object_type: 'group', object_id: String(groupIds.analysts) })
    expect(event.additional_properties).toEqual({ member_id: viId })
  })

  it('is fine with adding a member twice', async () => {
    const res = await admin.post(`/api/groups/${groupIds.analysts}/members`, { user_id: viId })
    expect(res.status).toBe(200)
    expect(await names(await admin.get(`/api/groups/${groupIds.analysts}/members`))).toEqual(['Vi Viewer'])
  })

  it('is for admins only', async () => {
    const res = await boClient.post(`/api/groups/${groupIds.default}/members`, { user_id: viId })
    expect(res.status).toBe(403)
    expect((await new Client(t.app).post(`/api/groups/${groupIds.default}/members`, { user_id: viId })).status).toBe(401)
  })

  it('answers 404 for an unknown group or user, 400 without a user id', async () => {
    let res = await admin.post('/api/groups/424242/members', { user_id: viId })
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe('Group not found.')
    res = await admin.post(`/api/groups/${groupIds.default}/members`, { user_id: 424242 })
    expect(res.status).toBe(404)
    expect(await messageOf(res)).toBe('User not found.')
    for (const body of [{}, { user_id: 'x' }, { user_id: -1 }]) {
      res = await admin.post(`/api/groups/${groupIds.default}/members`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await messageOf(res)).toContain('user_id')
    }
  })
})

describe('DELETE /api/groups/{id}/members/{userId}', () => {
  it('removes a member, records it, and their permissions change at once', async () => {
    const res = await admin.request('DELETE', `/api/groups/${groupIds.analysts}/members/${viId}`)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(await names(await admin.get(`/api/groups/${groupIds.analysts}/members`))).toEqual([])
    expect((await viewer.get('/api/users')).status).toBe(403)
    const [event] = await t.db.sql`select * from events where action = 'remove_member' order by id desc limit 1`
    expect(event.additional_properties).toEqual({ member_id: viId })
  })

  it('takes admin rights away from a signed-in user at once', async () => {
    await admin.post(`/api/groups/${groupIds.admin}/members`, { user_id: bo.id })
    expect((await boClient.get('/api/settings/organization')).status).toBe(200)
    expect((await byKey(bo.apiKey, '/api/settings/organization')).status).toBe(200)
    expect((await admin.request('DELETE', `/api/groups/${groupIds.admin}/members/${bo.id}`)).status).toBe(200)
    expect((await boClient.get('/api/settings/organization')).status).toBe(403)
    expect((await byKey(bo.apiKey, '/api/settings/organization')).status).toBe(403)
  })

  it('does not let an admin remove themself from a built-in group', async () => {
    for (const group of [groupIds.admin, groupIds.default]) {
      const res = await admin.request('DELETE', `/api/groups/${group}/members/${adminId}`)
      expect(res.status).toBe(403)
      expect(await messageOf(res)).toBe('You cannot remove yourself from a built-in group.')
    }
    expect(await names(await admin.get(`/api/groups/${groupIds.admin}/members`))).toEqual(['Ada Admin'])
    // from a regular group they may
    await admin.post(`/api/groups/${groupIds.readers}/members`, { user_id: adminId })
    expect((await admin.request('DELETE', `/api/groups/${groupIds.readers}/members/${adminId}`)).status).toBe(200)
  })

  it('is for admins only', async () => {
    expect((await boClient.request('DELETE', `/api/groups/${groupIds.readers}/members/${viId}`)).status).toBe(403)
    expect(await names(await admin.get(`/api/groups/${groupIds.readers}/members`))).toEqual(['Vi Viewer'])
  })

  it('answers 404 for an unknown group or user', async () => {
    expect((await admin.request('DELETE', `/api/groups/424242/members/${viId}`)).status).toBe(404)
    expect((await admin.request('DELETE', `/api/groups/${groupIds.readers}/members/424242`)).status).toBe(404)
    expect((await admin.request('DELETE', `/api/groups/${groupIds.readers}/members/x`)).status).toBe(404)
  })
})
