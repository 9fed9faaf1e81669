import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { filter, GROUP_SCHEMA, ScimClient, USER_SCHEMA } from '../helpers/scim-client.ts'
import { eventually } from '../helpers/wait.ts'

// SCIM 2.0 provisioning as Okta and Entra ID run it: the request sequences their documentation gives for creating,
// finding, updating and deactivating users and for groups and their members, replayed against Sightline.

let t: TestApp
let other: TestApp
let admin: Client
let scim: ScimClient

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  // a second web process on the same database: what one deactivates, the other must refuse too
  other = await createTestApp({}, { db: t.db })
  const res = await admin.request('POST', '/api/scim/token')
  expect(res.status).toBe(200)
  scim = new ScimClient(t.app, (await res.json()).token)
}, 60_000)
afterAll(async () => {
  await other?.deps.bus.stop()
  await other?.deps.executionsDone.stop()
  await t?.close()
})

const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

describe('SCIM discovery', () => {
  it('answers ServiceProviderConfig, Schemas and ResourceTypes in application/scim+json', async () => {
    const config = await scim.get('/ServiceProviderConfig')
    expect(config.status).toBe(200)
    expect(config.type).toContain('application/scim+json')
    expect(config.json).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } })
    expect((await scim.get('/Schemas')).json.Resources.map((s: { id: string }) => s.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA])
    expect((await scim.get('/ResourceTypes')).json.Resources.map((r: { endpoint: string }) => r.endpoint)).toEqual(['/Users', '/Groups'])
    expect((await scim.get(`/Schemas/${USER_SCHEMA}`)).status).toBe(200)
  })
})

describe('Okta provisioning', () => {
  let userId: string
  let groupId: string

  it('finds no user, creates one, reads it back', async () => {
    const none = await scim.get(`/Users?filter=${filter('userName', 'okta.user@example.com')}&startIndex=1&count=100`)
    expect(none.json).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, Resources: [] })
    const created = await scim.post('/Users', {
      schemas: [USER_SCHEMA], userName: 'okta.user@example.com', name: { givenName: 'Okta', familyName: 'User' },
      emails: [{ primary: true, value: 'okta.user@example.com', type: 'work' }], displayName: 'Okta User', locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7', groups: [], password: 'ignored-by-sightline', active: true,
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ userName: 'okta.user@example.com', displayName: 'Okta User', active: true, externalId: '00ujl29u0le5T6Aj10h7' })
    userId = created.json.id
    expect((await scim.get(`/Users/${userId}`)).json.emails).toEqual([{ value: 'okta.user@example.com', type: 'work', primary: true }])
    const found = await scim.get(`/Users?filter=${filter('userName', 'Okta.User@example.com')}&startIndex=1&count=100`)
    expect(found.json.totalResults).toBe(1)
    expect(found.json.Resources[0].id).toBe(userId)
  })

  it('refuses a second user with the same userName (409 uniqueness)', async () => {
    const again = await scim.post('/Users', { schemas: [USER_SCHEMA], userName: 'okta.user@example.com' })
    expect(again.status).toBe(409)
    expect(again.json).toMatchObject({ schemas: [SCIM_ERROR], status: '409', scimType: 'uniqueness' })
  })

  it('updates the profile with PUT', async () => {
    const res = await scim.put(`/Users/${userId}`, {
      schemas: [USER_SCHEMA], id: userId, userName: 'okta.user@example.com', name: { givenName: 'Okta', familyName: 'Renamed' },
      emails: [{ primary: true, value: 'okta.user@example.com', type: 'work' }], active: true,
    })
    expect(res.status).toBe(200)
    expect(res.json.displayName).toBe('Okta Renamed')
  })

  it('creates a group, renames it, adds and removes members', async () => {
    const created = await scim.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Okta Analysts', members: [] })
    expect(created.status).toBe(201)
    groupId = created.json.id
    expect((await scim.patch(`/Groups/${groupId}`, [{ op: 'replace', value: { id: groupId, displayName: 'Okta Analysts EU' } }])).status).toBe(204)
    expect((await scim.patch(`/Groups/${groupId}`, [{ op: 'add', path: 'members', value: [{ value: userId, display: 'okta.user@example.com' }] }])).status).toBe(204)
    const group = await scim.get(`/Groups?filter=${filter('displayName', 'Okta Analysts EU')}&startIndex=1&count=100`)
    expect(group.json.Resources[0]).toMatchObject({ displayName: 'Okta Analysts EU', members: [{ value: userId }] })
    expect((await scim.get(`/Users/${userId}`)).json.groups.map((g: { display: string }) => g.display)).toContain('Okta Analysts EU')
    expect((await scim.patch(`/Groups/${groupId}`, [{ op: 'remove', path: `members[value eq "${userId}"]` }])).status).toBe(204)
    expect((await scim.get(`/Groups/${groupId}`)).json.members).toEqual([])
  })

  it('deactivates the user: disabled, signed out in every process, API key refused at once', async () => {
    const { id, apiKey } = await addUser(t, { name: 'Dee Active', email: 'dee@example.com', password: 'dee-password-1' })
    const { client } = await signInAs(t.app, 'dee@example.com', 'dee-password-1')
    const elsewhere = new Client(other.app)
    elsewhere.cookies = new Map(client.cookies)
    // both processes have the session and the key cached
    expect((await client.get('/api/session')).status).toBe(200)
    expect((await elsewhere.get('/api/session')).status).toBe(200)
    expect((await other.app.request('/api/users/' + id, { headers: { authorization: `Key ${apiKey}` } })).status).toBe(200)
    const res = await scim.patch(`/Users/${id}`, [{ op: 'replace', value: { active: false } }])
    expect(res.status).toBe(200)
    expect(res.json.active).toBe(false)
    expect((await client.get('/api/session')).status).toBe(401)
    await eventually(async () => (await elsewhere.get('/api/session')).status, (s) => s === 401, 'the other process refusing the session')
    expect((await other.app.request('/api/users/' + id, { headers: { authorization: `Key ${apiKey}` } })).status).toBe(401)
    const [event] = await t.db.sql`select additional_properties as p from events where action = 'disable' and object_id = ${String(id)}`
    expect(event.p).toMatchObject({ via: 'scim' })
    // and back: active again, the user may sign in anew
    expect((await scim.patch(`/Users/${id}`, [{ op: 'replace', value: { active: true } }])).json.active).toBe(true)
    expect((await signInAs(t.app, 'dee@example.com', 'dee-password-1')).res.status).toBe(302)
  })

  it('deletes the group', async () => {
    expect((await scim.delete(`/Groups/${groupId}`)).status).toBe(204)
    expect((await scim.get(`/Groups/${groupId}`)).status).toBe(404)
  })
})

describe('Entra ID provisioning', () => {
  let userId: string
  let groupId: string

  it('finds no user, creates one with the enterprise schema and PATCHes it path by path', async () => {
    const none = await scim.get(`/Users?filter=${filter('userName', 'Test_User_ab6490ee@testuser.com')}`)
    expect(none.json.totalResults).toBe(0)
    const created = await scim.post('/Users', {
      schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', userName: 'Test_User_ab6490ee@testuser.com', active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@testuser.com' }], meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' }, roles: [],
    })
    expect(created.status).toBe(201)
    userId = created.json.id
    expect(created.json).toMatchObject({ userName: 'test_user_ab6490ee@testuser.com', displayName: 'givenName familyName' })
    const patched = await scim.patch(`/Users/${userId}`, [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@testuser.com' },
      { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
    ])
    expect(patched.status).toBe(200)
    expect(patched.json).toMatchObject({ userName: 'updatedemail@testuser.com', displayName: 'givenName updatedFamilyName' })
    const off = await scim.patch(`/Users/${userId}`, [{ op: 'Replace', path: 'active', value: 'False' }])
    expect(off.json.active).toBe(false)
  })

  it('creates a group, adds and removes members the Entra way, renames it, deletes it', async () => {
    const none = await scim.get(`/Groups?excludedAttributes=members&filter=${filter('displayName', 'Entra Group')}`)
    expect(none.json.totalResults).toBe(0)
    const created = await scim.post('/Groups', { externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'Entra Group', meta: { resourceType: 'Group' }, members: [] })
    expect(created.status).toBe(201)
    groupId = created.json.id
    expect((await scim.patch(`/Groups/${groupId}`, [{ op: 'Add', path: 'members', value: [{ $ref: null, value: userId }] }])).status).toBe(204)
    expect((await scim.get(`/Groups/${groupId}`)).json.members.map((m: { value: string }) => m.value)).toEqual([userId])
    expect((await scim.get(`/Groups/${groupId}?excludedAttributes=members`)).json.members).toBeUndefined()
    expect((await scim.patch(`/Groups/${groupId}`, [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: userId }] }])).status).toBe(204)
    expect((await scim.get(`/Groups/${groupId}`)).json.members).toEqual([])
    expect((await scim.patch(`/Groups/${groupId}`, [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474' }])).status).toBe(204)
    expect((await scim.get(`/Groups/${groupId}`)).json.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474')
    expect((await scim.delete(`/Groups/${groupId}`)).status).toBe(204)
  })

  it('DELETE of a user deactivates it (its history stays)', async () => {
    expect((await scim.delete(`/Users/${userId}`)).status).toBe(204)
    expect((await scim.get(`/Users/${userId}`)).json.active).toBe(false)
  })
})

describe('SCIM paging and errors', () => {
  it('pages with startIndex and count', async () => {
    for (let i = 0; i < 5; i++) await scim.post('/Users', { userName: `page${i}@example.com` })
    const all = await scim.get('/Users?count=1000')
    const page = await scim.get('/Users?startIndex=2&count=2')
    expect(page.json).toMatchObject({ totalResults: all.json.totalResults, startIndex: 2, itemsPerPage: 2 })
    expect(page.json.Resources.map((u: { id: string }) => u.id)).toEqual(all.json.Resources.slice(1, 3).map((u: { id: string }) => u.id))
    expect((await scim.get('/Users?count=0')).json).toMatchObject({ itemsPerPage: 0, Resources: [] })
  })

  it('refuses PATCH of an attribute Sightline does not keep, changing nothing', async () => {
    const user = (await scim.get(`/Users?filter=${filter('userName', 'page0@example.com')}`)).json.Resources[0]
    const res = await scim.patch(`/Users/${user.id}`, [
      { op: 'replace', path: 'displayName', value: 'Not Applied' },
      { op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Sales' },
    ])
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ schemas: [SCIM_ERROR], status: '400', scimType: 'invalidPath' })
    expect((await scim.get(`/Users/${user.id}`)).json.displayName).toBe('page0@example.com')
  })

  it('answers an unsupported filter, bad JSON and an unknown id in the SCIM error schema', async () => {
    expect((await scim.get(`/Users?filter=${encodeURIComponent('name.givenName sw "a"')}`)).json).toMatchObject({ status: '400', scimType: 'invalidFilter' })
    const bad = await t.app.request('/api/scim/v2/Users', { method: 'POST', headers: { authorization: `Bearer ${scim.token}`, 'content-type': 'application/scim+json' }, body: '{nope' })
    expect(bad.status).toBe(400)
    expect((await bad.json()).schemas).toEqual([SCIM_ERROR])
    expect((await scim.get('/Users/999999')).json).toMatchObject({ schemas: [SCIM_ERROR], status: '404' })
    expect((await scim.get('/Users/abc')).status).toBe(404)
    expect((await scim.post('/Users', { userName: 'no-at-sign' })).json).toMatchObject({ status: '400', scimType: 'invalidValue' })
  })
})
