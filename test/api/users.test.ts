import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** The users API (spec 3 §7 "Users", reference §1.6): the list, and saving a profile with its rules. */
let t: TestApp
let admin: Client
let adminId: number
let bo: { id: number; apiKey: string }
let boClient: Client
let viewer: Client
let groupIds: { admin: number; default: number; readers: number }

const byKey = (key: string, method: string, path: string, json?: unknown) =>
  t.app.request(path, {
    method, headers: { authorization: `Key ${key}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  })

const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  adminId = (await (await admin.get('/api/session')).json()).user.id
  bo = await addUser(t, { name: 'Bo Builder', email: 'bo@example.com', password: 'bo-password' })
  boClient = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  // someone who may only view queries (no list_users)
  const vi = await addUser(t, { name: 'Vi Viewer', email: 'vi@example.com', password: 'vi-password' })
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
  const [readers] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${['view_query']}) returning id`
  await t.db.sql`delete from user_groups where user_id = ${vi.id}`
  await t.db.sql`insert into user_groups (user_id, group_id) values (${vi.id}, ${readers.id})`
  viewer = (await signInAs(t.app, 'vi@example.com', 'vi-password')).client
  const groups = await t.db.sql<{ id: number; name: string }[]>`select id, name from groups where type = 'builtin'`
  groupIds = { admin: groups.find((g) => g.name === 'admin')!.id, default: groups.find((g) => g.name === 'default')!.id, readers: readers.id }
})
afterAll(() => t.close())

describe('GET /api/users', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 27; i++) {
      await addUser(t, { name: `Member ${String(i).padStart(2, '0')}`, email: `member${i}@corp.test`, password: 'member-password' })
    }
    await addUser(t, { name: 'Dee Disabled', email: 'dee@example.com', password: 'dee-password', disabled: true })
    await t.db.sql`update users set created_at = now() - make_interval(mins => (1000 - id)::int)` // a known order: higher id = newer
    // later than any sign-in of this test can make it
    await t.db.sql`update users set active_at = now() + interval '1 hour' where email = 'member3@corp.test'`
    await t.db.sql`update users set active_at = now() + interval '2 hours' where email = 'member5@corp.test'`
    await t.db.sql`update users set is_invitation_pending = true where email = 'member7@corp.test'`
  })

  it('pages the enabled users, newest first, 25 at a time, with their groups by name', async () => {
    const res = await admin.get('/api/users')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ count: 30, page: 1, page_size: 25 })
    expect(body.results).toHaveLength(25)
    expect(body.results[0].name).toBe('Member 27')
    expect(body.results.map((u: { name: string }) => u.name)).not.toContain('Dee Disabled')
    const adminRow = (await (await admin.get('/api/users?page=2')).json()).results.find((u: { id: number }) => u.id === adminId)
    expect(adminRow.groups).toEqual([{ id: groupIds.admin, name: 'admin' }, { id: groupIds.default, name: 'default' }])
    expect(adminRow).not.toHaveProperty('api_key')
    expect(Object.keys(adminRow).sort()).toEqual([
      'active_at', 'auth_type', 'created_at', 'disabled_at', 'email', 'groups', 'id', 'is_disabled', 'is_email_verified',
      'is_invitation_pending', 'name', 'profile_image_url', 'updated_at',
    ])
  })

  it('searches names and emails, ignoring case, and takes % and _ literally', async () => {
    const names = async (q: string) => (await (await admin.get(`/api/users?q=${encodeURIComponent(q)}&page_size=250`)).json()).results.map((u: { name: string }) => u.name)
    expect(await names('bO BUIL')).toEqual(['Bo Builder'])
    expect(await names('VI@EXAMPLE')).toEqual(['Vi Viewer'])
    expect((await names('corp.test')).length).toBe(27)
    expect(await names('%')).toEqual([])
    expect(await names('member_')).toEqual([])
  })

  it('orders by name, created_at or active_at, descending with a leading "-"', async () => {
    const names = async (order: string) => (await (await admin.get(`/api/users?order=${order}&page_size=250`)).json()).results.map((u: { name: string }) => u.name)
    const byName = await names('name')
    expect(byName.slice(0, 3)).toEqual(['Ada Admin', 'Bo Builder', 'Member 01'])
    expect(await names('-name')).toEqual([...byName].reverse())
    expect((await names('created_at'))[0]).toBe('Ada Admin')
    expect((await names('-created_at'))[0]).toBe('Member 27')
    expect((await names('-active_at')).slice(0, 2)).toEqual(['Member 05', 'Member 03'])
    expect((await names('nonsense'))[0]).toBe('Member 27') // unknown: the default
  })

  it('filters pending invitations, and lists disabled users for admins only', async () => {
    const pending = (await (await admin.get('/api/users?pending=true')).json()).results.map((u: { name: string }) => u.name)
    expect(pending).toEqual(['Member 07'])
    expect((await (await admin.get('/api/users?pending=false')).json()).count).toBe(29)
    const disabled = await (await admin.get('/api/users?disabled=true')).json()
    expect(disabled.results.map((u: { name: string; is_disabled: boolean }) => [u.name, u.is_disabled])).toEqual([['Dee Disabled', true]])
    expect(disabled.results[0].profile_image_url).toBe('/static/images/avatar.svg')
    const res = await boClient.get('/api/users?disabled=true')
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe('Only admins can list disabled users.')
  })

  it('is for holders of list_users and admins', async () => {
    expect((await boClient.get('/api/users')).status).toBe(200)
    expect((await byKey(bo.apiKey, 'GET', '/api/users')).status).toBe(200)
    expect((await viewer.get('/api/users')).status).toBe(403)
    expect((await new Client(t.app).get('/api/users')).status).toBe(401)
  })

  it('checks the paging parameters', async () => {
    for (const [query, message] of [
      ['page=0', 'Page must be positive integer.'], ['page=x', 'Page must be positive integer.'], ['page=1.5', 'Page must be positive integer.'],
      ['page_size=0', 'Page size is out of range (1-250).'], ['page_size=251', 'Page size is out of range (1-250).'],
      ['page=3', 'Page is out of range.'],
    ]) {
      const res = await admin.get(`/api/users?${query}`)
      expect(res.status, query).toBe(400)
      expect(await messageOf(res), query).toBe(message)
    }
    const second = await (await admin.get('/api/users?page=2&page_size=10')).json()
    expect(second).toMatchObject({ count: 30, page: 2, page_size: 10 })
    expect(second.results).toHaveLength(10)
    expect((await (await admin.get('/api/users?q=nobody-at-all&page=4')).json())).toEqual({ count: 0, page: 4, page_size: 25, results: [] })
  })
})

describe('POST /api/users/{id}', () => {
  it('saves the name and email of one\'s own profile, and records which fields changed', async () => {
    const res = await boClient.post(`/api/users/${bo.id}`, { id: bo.id, name: '  Bo Baker ', email: 'Bo.Baker@Example.com' })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ id: bo.id, name: 'Bo Baker', email: 'bo.baker@example.com', groups: [{ id: groupIds.default, name: 'default' }] })
    expect(body.api_key).toBe(bo.apiKey)
    const [event] = await t.db.sql`select * from events where action = 'edit' and object_type = 'user' and object_id = ${String(bo.id)} order by id desc limit 1`
    expect(event.user_id).toBe(bo.id)
    expect(event.additional_properties.updated_fields).toEqual(['name', 'email'])
    // the session shows the new name at once
    expect((await (await boClient.get('/api/session')).json()).user.name).toBe('Bo Baker')
  })

  it('refuses a blank or malformed name or email with the form\'s messages', async () => {
    for (const [body, message] of [
      [{ name: '   ' }, 'Name: This field is required.'], [{ email: '' }, 'Email: This field is required.'],
      [{ email: 'not-an-address' }, 'Email: This field must be a valid email.'], [{ name: 42 }, 'name must be text.'],
    ] as const) {
      const res = await boClient.post(`/api/users/${bo.id}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(await messageOf(res)).toBe(message)
    }
    const res = await boClient.request('POST', `/api/users/${bo.id}`, { headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
  })

  it('refuses an email someone else has, whatever its case', async () => {
    const res = await boClient.post(`/api/users/${bo.id}`, { email: 'ADA@example.com' })
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe('Email already taken.')
    expect((await boClient.post(`/api/users/${bo.id}`, { email: 'bo.baker@example.com' })).status).toBe(200) // one's own is fine
  })

  it('lets admins edit anyone, others only themselves', async () => {
    const vi = (await (await viewer.get('/api/session')).json()).user.id
    const res = await boClient.post(`/api/users/${vi}`, { name: 'Hacked' })
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe("You don't have permission to edit this resource.")
    const edited = await (await admin.post(`/api/users/${vi}`, { name: 'Vi Viewer-Smith' })).json()
    expect(edited.name).toBe('Vi Viewer-Smith')
    expect(edited).toHaveProperty('api_key') // admins see keys
    expect((await new Client(t.app).post(`/api/users/${vi}`, { name: 'Anon' })).status).toBe(401)
    expect((await admin.post('/api/users/424242', { name: 'Nobody' })).status).toBe(404)
    expect((await admin.post('/api/users/abc', { name: 'Nobody' })).status).toBe(404)
  })

  it('keeps disabled users\' profiles read-only', async () => {
    const [dee] = await t.db.sql<{ id: number }[]>`select id from users where email = 'dee@example.com'`
    const res = await admin.post(`/api/users/${dee.id}`, { name: 'Dee Again' })
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe("A disabled user's profile cannot be changed.")
  })

  describe('groups', () => {
    it('are changed by admins only', async () => {
      const res = await boClient.post(`/api/users/${bo.id}`, { group_ids: [groupIds.admin, groupIds.default] })
      expect(res.status).toBe(403)
      expect(await messageOf(res)).toBe('Must be admin to change groups membership.')
    })

    it('must all exist', async () => {
      const res = await admin.post(`/api/users/${bo.id}`, { group_ids: [groupIds.default, 424242] })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe('Group id 424242 is invalid.')
      expect((await admin.post(`/api/users/${bo.id}`, { group_ids: ['x'] })).status).toBe(400)
    })

    it('replace the user\'s groups, and the user\'s permissions follow at once', async () => {
      expect((await boClient.get('/api/settings/organization')).status).toBe(403)
      const res = await admin.post(`/api/users/${bo.id}`, { group_ids: [groupIds.default, groupIds.admin] })
      expect(res.status).toBe(200)
      expect((await res.json()).groups).toEqual([{ id: groupIds.admin, name: 'admin' }, { id: groupIds.default, name: 'default' }])
      expect((await boClient.get('/api/settings/organization')).status).toBe(200)
      expect((await byKey(bo.apiKey, 'GET', '/api/settings/organization')).status).toBe(200)
      await admin.post(`/api/users/${bo.id}`, { group_ids: [groupIds.default] })
      expect((await boClient.get('/api/settings/organization')).status).toBe(403)
      expect((await byKey(bo.apiKey, 'GET', '/api/settings/organization')).status).toBe(403)
    })

    it('ignore an empty list', async () => {
      const res = await admin.post(`/api/users/${bo.id}`, { group_ids: [] })
      expect((await res.json()).groups).toEqual([{ id: groupIds.default, name: 'default' }])
    })

    it('cannot be changed by an admin on their own profile (neither dropped nor added), though resending them is fine', async () => {
      for (const wanted of [[groupIds.default], [groupIds.admin, groupIds.default, groupIds.readers]]) {
        const res = await admin.post(`/api/users/${adminId}`, { group_ids: wanted })
        expect(res.status).toBe(403)
        expect(await messageOf(res)).toBe('You cannot change your own groups. Please ask another admin to do this for you.')
      }
      const same = await admin.post(`/api/users/${adminId}`, { group_ids: [groupIds.default, groupIds.admin] })
      expect(same.status).toBe(200)
      expect((await same.json()).groups.map((g: { id: number }) => g.id).sort()).toEqual([groupIds.admin, groupIds.default].sort())
    })
  })

  describe('password', () => {
    it('needs the current password, also from admins', async () => {
      for (const [client, body] of [
        [boClient, { password: 'new-password' }], [boClient, { password: 'new-password', old_password: '' }],
        [admin, { password: 'new-password' }],
      ] as const) {
        const res = await client.post(`/api/users/${bo.id}`, body)
        expect(res.status).toBe(403)
        expect(await messageOf(res)).toBe('Must provide current password to update password.')
      }
    })

    it('refuses a wrong current password', async () => {
      const res = await boClient.post(`/api/users/${bo.id}`, { password: 'new-password', old_password: 'not-it' })
      expect(res.status).toBe(403)
      expect(await messageOf(res)).toBe('Incorrect current password.')
    })

    it('refuses a new password shorter than 6 characters', async () => {
      const res = await boClient.post(`/api/users/${bo.id}`, { password: '12345', old_password: 'bo-password' })
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe('Password length is too short (<6).')
    })

    it('changes it, ending the user\'s other sessions but not this one, and never records it', async () => {
      const other = (await signInAs(t.app, 'bo.baker@example.com', 'bo-password')).client
      expect((await other.get('/api/session')).status).toBe(200)
      const [{ count: before }] = await t.db.sql<{ count: number }[]>`select count(*)::int as count from sessions where user_id = ${bo.id}`
      expect(before).toBeGreaterThanOrEqual(2)

      const res = await boClient.post(`/api/users/${bo.id}`, { password: 'brand-new-password', old_password: 'bo-password' })
      expect(res.status).toBe(200)
      expect(JSON.stringify(await res.json())).not.toContain('brand-new-password')
      expect((await boClient.get('/api/session')).status).toBe(200) // the session that changed it
      expect((await other.get('/api/session')).status).toBe(401) // every other one has ended
      const [{ count: after }] = await t.db.sql<{ count: number }[]>`select count(*)::int as count from sessions where user_id = ${bo.id}`
      expect(after).toBe(1)
      expect((await byKey(bo.apiKey, 'GET', '/api/session')).status).toBe(200) // the API key is not a session

      expect((await signInAs(t.app, 'bo.baker@example.com', 'bo-password')).res.headers.get('location')).not.toBe('/')
      const { res: signIn } = await signInAs(t.app, 'bo.baker@example.com', 'brand-new-password')
      expect(signIn.status).toBe(302)
      expect(signIn.headers.get('location')).toBe('/')

      const [event] = await t.db.sql`select * from events where action = 'edit' and object_type = 'user' and object_id = ${String(bo.id)} order by id desc limit 1`
      expect(event.additional_properties).toEqual({ updated_fields: ['password'] })
      const [{ leaked }] = await t.db.sql`select count(*)::int as leaked from events where additional_properties::text like '%password-%'`
      expect(leaked).toBe(0)
    })

    it('ends the other sessions when the email changes too', async () => {
      const other = (await signInAs(t.app, 'bo.baker@example.com', 'brand-new-password')).client
      expect((await boClient.post(`/api/users/${bo.id}`, { email: 'bo@example.com' })).status).toBe(200)
      expect((await other.get('/api/session')).status).toBe(401)
      expect((await boClient.get('/api/session')).status).toBe(200)
    })

    it('keeps other sessions when only the name changes', async () => {
      const other = (await signInAs(t.app, 'bo@example.com', 'brand-new-password')).client
      expect((await boClient.post(`/api/users/${bo.id}`, { name: 'Bo' })).status).toBe(200)
      expect((await other.get('/api/session')).status).toBe(200)
    })

    it('through the API key ends every browser session of the user', async () => {
      const browser = (await signInAs(t.app, 'bo@example.com', 'brand-new-password')).client
      const res = await byKey(bo.apiKey, 'POST', `/api/users/${bo.id}`, { password: 'bo-password', old_password: 'brand-new-password' })
      expect(res.status).toBe(200)
      expect((await browser.get('/api/session')).status).toBe(401)
      expect((await boClient.get('/api/session')).status).toBe(401)
      boClient = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
      expect((await boClient.get('/api/session')).status).toBe(200)
    })
  })
})

describe('GET /api/users/{id} and the API key', () => {
  it('shows the key to the user and admins only', async () => {
    const own = await boClient.get(`/api/users/${bo.id}`)
    expect(own.headers.get('cache-control')).toBe('no-store') // a secret: not for any cache
    expect((await own.json()).api_key).toBe(bo.apiKey)
    expect((await (await admin.get(`/api/users/${bo.id}`)).json()).api_key).toBe(bo.apiKey)
    const seen = await (await boClient.get(`/api/users/${adminId}`)).json()
    expect(seen.name).toBe(ADMIN.name)
    expect(seen).not.toHaveProperty('api_key')
    expect((await viewer.get(`/api/users/${adminId}`)).status).toBe(403)
  })

  it('regenerates it: the old key stops working at once', async () => {
    expect((await byKey(bo.apiKey, 'GET', '/api/session')).status).toBe(200)
    const res = await boClient.post(`/api/users/${bo.id}/regenerate_api_key`)
    const { api_key } = await res.json()
    expect(api_key).toMatch(/^[A-Za-z0-9]{40}$/)
    expect((await byKey(bo.apiKey, 'GET', '/api/session')).status).toBe(401)
    expect((await byKey(api_key, 'GET', '/api/session')).status).toBe(200)
    expect((await boClient.post(`/api/users/${adminId}/regenerate_api_key`)).status).toBe(403)
  })
})
