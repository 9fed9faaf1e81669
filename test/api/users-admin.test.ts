import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'
import { redeemUserLink } from '../../src/users/index.ts'

/**
 * What admins do to accounts (spec 3 §4, §7 "Users"; reference §1.6): invite, disable and enable, delete pending
 * invitations, resend invitations, password-reset links; each as admin, member and anonymous, with bad input refused.
 */
let t: TestApp
let admin: Client
let adminId: number
let member: Client
let memberId: number
const anonymous = () => new Client(t.app)
const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message
const tokenOf = (link: string) => link.split('/').at(-1)!
let defaultGroupId: number

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  adminId = (await (await admin.get('/api/session')).json()).user.id
  memberId = (await addUser(t, { name: 'Mo Member', email: 'mo@example.com', password: 'mo-password' })).id
  member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
  ;[{ id: defaultGroupId }] = await t.db.sql<{ id: number }[]>`select id from groups where name = 'default' and type = 'builtin'`
})
afterAll(() => t.close())

const invite = (name: string, email: string) => admin.post('/api/users', { name, email })

describe('POST /api/users', () => {
  it('invites a pending user without a password, in the default group, with a one-week single-use invitation link', async () => {
    const res = await invite('Nia New', 'Nia.New@Example.COM')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await res.json()
    expect(body).toMatchObject({
      name: 'Nia New', email: 'nia.new@example.com', is_invitation_pending: true, is_disabled: false, auth_type: 'external',
      groups: [{ id: defaultGroupId, name: 'default' }],
    })
    expect(body.invite_link).toMatch(new RegExp(`^http://localhost/invite/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`))
    const [row] = await t.db.sql<{ password_hash: string | null; days: number }[]>`
      select u.password_hash, extract(epoch from t.expires_at - t.created_at) / 86400 as days
      from users u join user_tokens t on t.user_id = u.id where u.id = ${body.id}`
    expect(row.password_hash).toBeNull()
    expect(Math.round(Number(row.days))).toBe(7)
    // the link opens once, for this user and for invitations only
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', tokenOf(body.invite_link))).toBeUndefined()
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', tokenOf(body.invite_link))).toBe(body.id)
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', tokenOf(body.invite_link))).toBeUndefined()
  })

  it('uses the configured Base URL for links', async () => {
    const other = await createTestApp({ baseUrl: 'https://sightline.example.com/data' })
    try {
      const client = await setUp(other.app)
      const body = await (await client.post('/api/users', { name: 'Bea', email: 'bea@example.com' })).json()
      expect(body.invite_link).toMatch(/^https:\/\/sightline\.example\.com\/data\/invite\//)
    } finally {
      await other.close()
    }
  })

  it('refuses an address already taken, whatever its case', async () => {
    expect((await invite('Dup', 'dup@example.com')).status).toBe(200)
    for (const email of ['dup@example.com', 'DUP@example.com', 'ADA@example.com']) {
      const res = await invite('Dup again', email)
      expect(res.status).toBe(400)
      expect(await messageOf(res)).toBe('Email already taken.')
    }
  })

  it.each([
    [{ email: 'x@example.com' }, 'Name: This field is required.'],
    [{ name: '  ', email: 'x@example.com' }, 'Name: This field is required.'],
    [{ name: 'X' }, 'Email: This field is required.'],
    [{ name: 'X', email: 'not-an-address' }, 'Bad email address.'],
    [{ name: 'X', email: 'a b@example.com' }, 'Bad email address.'],
    [{ name: 42, email: 'x@example.com' }, 'name must be text.'],
    [{ name: 'X', email: ['x@example.com'] }, 'email must be text.'],
    [{ name: 'x'.repeat(201), email: 'x@example.com' }, 'Name: This field is too long (at most 200 characters).'],
    [{ name: 'X', email: `${'x'.repeat(400)}@example.com` }, 'Email: This field is too long.'],
    [[], 'The request body must be a JSON object.'],
    [null, 'The request body must be a JSON object.'],
  ])('refuses %j with a 400 naming the problem', async (body, message) => {
    const res = await admin.post('/api/users', body)
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe(message)
  })

  it('refuses malformed JSON', async () => {
    const res = await admin.request('POST', '/api/users', { headers: { 'content-type': 'application/json' }, json: undefined })
    expect(res.status).toBe(400)
    const raw = await t.app.request('/api/users', {
      method: 'POST', body: '{"name": "X",', headers: { 'content-type': 'application/json', cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': admin.csrf },
    })
    expect(raw.status).toBe(400)
    expect(typeof (await raw.json()).message).toBe('string')
  })

  it('is for admins only', async () => {
    const res = await member.post('/api/users', { name: 'Sneaky', email: 'sneaky@example.com' })
    expect(res.status).toBe(403)
    expect((await anonymous().post('/api/users', { name: 'Anon', email: 'anon@example.com' })).status).toBe(401)
    const [{ count }] = await t.db.sql<{ count: number }[]>`select count(*)::int as count from users where email in ('sneaky@example.com', 'anon@example.com')`
    expect(count).toBe(0)
  })
})

describe('GET /api/users filters', () => {
  it('lists pending invitations apart, and pages and orders as asked', async () => {
    await invite('Pat Pending', 'pat@example.com')
    const pending = await (await admin.get('/api/users?pending=true&q=pat')).json()
    expect(pending).toMatchObject({ count: 1, page: 1, page_size: 25 })
    expect(pending.results[0].email).toBe('pat@example.com')
    const accepted = await (await admin.get('/api/users?pending=false')).json()
    expect(accepted.results.map((u: { email: string }) => u.email).sort()).toEqual(['ada@example.com', 'mo@example.com'])
    const byName = await (await admin.get('/api/users?order=name&page_size=2&page=1')).json()
    expect(byName.results).toHaveLength(2)
    expect(byName.results[0].name <= byName.results[1].name).toBe(true)
  })

  it.each(['page=0', 'page=x', 'page_size=0', 'page_size=100000', 'page=999'])('refuses %s with a 400', async (query) => {
    const res = await admin.get(`/api/users?${query}`)
    expect(res.status).toBe(400)
    expect(typeof (await res.json()).message).toBe('string')
  })

  it('sorts by an allowed column only: any other order is the default, newest first', async () => {
    const odd = await (await admin.get('/api/users?order=password_hash')).json()
    const plain = await (await admin.get('/api/users')).json()
    expect(odd.results.map((u: { id: number }) => u.id)).toEqual(plain.results.map((u: { id: number }) => u.id))
    expect(plain.results[0].name).toBe('Pat Pending')
  })

  it('answers a huge search with an empty page, and refuses a huge body', async () => {
    const res = await admin.get(`/api/users?q=${'z'.repeat(20_000)}`)
    expect(res.status).toBe(200)
    expect((await res.json()).count).toBe(0)
    const big = await admin.post('/api/users', { name: 'Big', email: 'big@example.com', padding: 'x'.repeat(5_000_000) })
    expect(big.status).toBeGreaterThanOrEqual(400)
    expect(big.status).toBeLessThan(500)
    expect(typeof (await big.json()).message).toBe('string')
  })

  it('shows disabled users to admins only', async () => {
    expect((await member.get('/api/users?disabled=true')).status).toBe(403)
    expect((await anonymous().get('/api/users')).status).toBe(401)
  })
})

describe('disable and enable', () => {
  it('ends a disabled user’s sessions and API key at once, and enabling lets them sign in again', async () => {
    const target = await addUser(t, { name: 'Dan', email: 'dan@example.com', password: 'dan-password' })
    const dan = (await signInAs(t.app, 'dan@example.com', 'dan-password')).client
    expect((await dan.get('/api/session')).status).toBe(200)
    const keyCall = () => t.app.request('/api/users', { headers: { authorization: `Key ${target.apiKey}` } })
    expect((await keyCall()).status).toBe(200)

    const res = await admin.post(`/api/users/${target.id}/disable`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id: target.id, is_disabled: true, profile_image_url: '/static/images/avatar.svg' })
    expect((await dan.get('/api/users')).status).toBe(401)
    expect((await keyCall()).status).toBe(401)
    expect((await signInAs(t.app, 'dan@example.com', 'dan-password')).res.status).not.toBe(302)
    const disabled = await (await admin.get('/api/users?disabled=true')).json()
    expect(disabled.results.map((u: { id: number }) => u.id)).toContain(target.id)

    const enabled = await admin.request('DELETE', `/api/users/${target.id}/disable`)
    expect(enabled.status).toBe(200)
    expect(await enabled.json()).toMatchObject({ is_disabled: false, profile_image_url: expect.stringMatching(/^\/avatar\//) })
    expect((await signInAs(t.app, 'dan@example.com', 'dan-password')).res.status).toBe(302)
    expect((await dan.get('/api/users')).status).toBe(401) // the old session stays ended
  })

  it('stops a disabled user’s unused links from working', async () => {
    const target = await addUser(t, { name: 'Lin', email: 'lin@example.com', password: 'lin-password' })
    const { reset_link: link } = await (await admin.post(`/api/users/${target.id}/reset_password`)).json()
    await admin.post(`/api/users/${target.id}/disable`)
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', tokenOf(link))).toBeUndefined()
  })

  it('refuses an admin disabling themself', async () => {
    const res = await admin.post(`/api/users/${adminId}/disable`)
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe('You cannot disable your own account. Please ask another admin to do this for you.')
    expect((await admin.get('/api/session')).status).toBe(200)
  })

  it('is for admins only, and unknown ids are 404', async () => {
    expect((await member.post(`/api/users/${adminId}/disable`)).status).toBe(403)
    expect((await member.request('DELETE', `/api/users/${memberId}/disable`)).status).toBe(403)
    expect((await anonymous().post(`/api/users/${memberId}/disable`)).status).toBe(401)
    for (const id of ['424242', 'x', '-1', '1'.repeat(40)]) expect((await admin.post(`/api/users/${id}/disable`)).status).toBe(404)
    expect((await admin.get('/api/session')).status).toBe(200)
    expect((await member.get('/api/session')).status).toBe(200)
  })
})

describe('DELETE /api/users/{id}', () => {
  it('deletes a pending invitation, and its link with it', async () => {
    const body = await (await invite('Gone Soon', 'gone@example.com')).json()
    const res = await admin.request('DELETE', `/api/users/${body.id}`)
    expect(res.status).toBe(204)
    expect((await admin.get(`/api/users/${body.id}`)).status).toBe(404)
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', tokenOf(body.invite_link))).toBeUndefined()
  })

  it('refuses activated users (disable them instead) and oneself', async () => {
    const res = await admin.request('DELETE', `/api/users/${memberId}`)
    expect(res.status).toBe(403)
    expect(await messageOf(res)).toBe('You cannot delete activated users. Please disable the user instead.')
    const self = await admin.request('DELETE', `/api/users/${adminId}`)
    expect(self.status).toBe(403)
    expect(await messageOf(self)).toBe('You cannot delete your own account. Please ask another admin to do this for you.')
  })

  it('is for admins only, and unknown ids are 404', async () => {
    const body = await (await invite('Kept', 'kept@example.com')).json()
    expect((await member.request('DELETE', `/api/users/${body.id}`)).status).toBe(403)
    expect((await anonymous().request('DELETE', `/api/users/${body.id}`)).status).toBe(401)
    expect((await admin.get(`/api/users/${body.id}`)).status).toBe(200)
    expect((await admin.request('DELETE', '/api/users/424242')).status).toBe(404)
  })
})

describe('invitation and reset links', () => {
  it('resends an invitation: a new link, and the previous one stops working', async () => {
    const body = await (await invite('Ivy', 'ivy@example.com')).json()
    const res = await admin.post(`/api/users/${body.id}/invite`)
    expect(res.status).toBe(200)
    const { invite_link: fresh } = await res.json()
    expect(fresh).toMatch(/\/invite\//)
    expect(fresh).not.toBe(body.invite_link)
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', tokenOf(body.invite_link))).toBeUndefined()
    expect(await redeemUserLink(t.db.sql, t.deps, 'invite', tokenOf(fresh))).toBe(body.id)
  })

  it('refuses to reinvite someone who has accepted', async () => {
    const res = await admin.post(`/api/users/${memberId}/invite`)
    expect(res.status).toBe(400)
    expect(await messageOf(res)).toBe('This user has already accepted the invitation. Send a password reset link instead.')
  })

  it('gives a reset link that works once, for one day, and not for a forged or altered token', async () => {
    const res = await admin.post(`/api/users/${memberId}/reset_password`)
    expect(res.status).toBe(200)
    const { reset_link: link } = await res.json()
    expect(link).toMatch(/^http:\/\/localhost\/reset\//)
    const [row] = await t.db.sql<{ hours: number }[]>`
      select extract(epoch from expires_at - created_at) / 3600 as hours from user_tokens where user_id = ${memberId} and purpose = 'reset'`
    expect(Math.round(Number(row.hours))).toBe(24)
    const token = tokenOf(link)
    const [random, signature] = token.split('.')
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', `${random}.${signature.slice(1)}x`)).toBeUndefined()
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', random)).toBeUndefined()
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', token)).toBe(memberId)
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', token)).toBeUndefined()
  })

  it('refuses an expired link', async () => {
    const { reset_link: link } = await (await admin.post(`/api/users/${memberId}/reset_password`)).json()
    await t.db.sql`update user_tokens set expires_at = now() - interval '1 second' where user_id = ${memberId} and used_at is null`
    expect(await redeemUserLink(t.db.sql, t.deps, 'reset', tokenOf(link))).toBeUndefined()
  })

  it('gives no link for a disabled user', async () => {
    const target = await addUser(t, { name: 'Off', email: 'off@example.com', password: 'off-password', disabled: true })
    const res = await admin.post(`/api/users/${target.id}/reset_password`)
    expect(res.status).toBe(404)
    expect((await admin.post(`/api/users/${target.id}/invite`)).status).toBe(404)
  })

  it('is for admins only', async () => {
    const pending = await (await invite('Pia', 'pia@example.com')).json()
    expect((await member.post(`/api/users/${pending.id}/invite`)).status).toBe(403)
    expect((await member.post(`/api/users/${memberId}/reset_password`)).status).toBe(403)
    expect((await member.post(`/api/users/${adminId}/reset_password`)).status).toBe(403)
    expect((await anonymous().post(`/api/users/${memberId}/reset_password`)).status).toBe(401)
    expect((await admin.post('/api/users/424242/reset_password')).status).toBe(404)
  })
})

describe('POST /api/users/{id} by an admin', () => {
  it('changes a password with the current one and ends the user’s other sessions, not this one', async () => {
    const target = await addUser(t, { name: 'Cy', email: 'cy@example.com', password: 'cy-password' })
    const here = (await signInAs(t.app, 'cy@example.com', 'cy-password')).client
    const elsewhere = (await signInAs(t.app, 'cy@example.com', 'cy-password')).client
    const res = await here.post(`/api/users/${target.id}`, { old_password: 'cy-password', password: 'cy-new-password' })
    expect(res.status).toBe(200)
    expect((await here.get('/api/session')).status).toBe(200)
    expect((await elsewhere.get('/api/users')).status).toBe(401)
    expect((await signInAs(t.app, 'cy@example.com', 'cy-new-password')).res.status).toBe(302)
  })

  it('sets another user’s groups, refuses them to the user themself', async () => {
    const [{ id: adminGroup }] = await t.db.sql<{ id: number }[]>`select id from groups where name = 'admin' and type = 'builtin'`
    expect((await member.post(`/api/users/${memberId}`, { group_ids: [defaultGroupId, adminGroup] })).status).toBe(403)
    const res = await admin.post(`/api/users/${memberId}`, { group_ids: [defaultGroupId] })
    expect(res.status).toBe(200)
    expect((await admin.post(`/api/users/${adminId}`, { group_ids: [defaultGroupId] })).status).toBe(403)
  })
})
