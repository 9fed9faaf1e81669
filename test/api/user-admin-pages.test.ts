import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { islandProps, islandsOf, shellIslands } from '../helpers/pages.ts'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * The admin side of the users pages (spec 3 §2, §4, §6): the New User button and /users/new for admins only, the
 * account actions on someone else's profile by the state of their account, and the notices the actions leave.
 */
let t: TestApp
let admin: Client
let adminId: number
let member: Client
let activeId: number
let pendingId: number
let disabledId: number

const SHELL_ISLANDS = shellIslands()
const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, location: res.headers.get('location'), html: (await res.text()).replaceAll('<!-- -->', '') }
}
const NEW_USER_BUTTON = /<a href="\/users\/new"[^>]*>.*?New User<\/a>/

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  adminId = (await (await admin.get('/api/session')).json()).user.id
  activeId = (await addUser(t, { name: 'Al Active', email: 'al@example.com', password: 'al-password' })).id
  member = (await signInAs(t.app, 'al@example.com', 'al-password')).client
  disabledId = (await addUser(t, { name: 'Di Disabled', email: 'di@example.com', password: 'di-password', disabled: true })).id
  pendingId = (await (await admin.post('/api/users', { name: 'Pia Pending', email: 'pia@example.com' })).json()).id
})
afterAll(() => t.close())

describe('New User', () => {
  it('is a button on every users list for admins, leading to /users/new', async () => {
    for (const path of ['/users', '/users/pending', '/users/disabled']) {
      expect((await page(admin, path)).html, path).toMatch(NEW_USER_BUTTON)
    }
  })

  it('is not offered to members, and /users/new sends them to the list', async () => {
    for (const path of ['/users', '/users/pending']) expect((await page(member, path)).html, path).not.toContain('New User')
    const { status, location } = await page(member, '/users/new')
    expect(status).toBe(302)
    expect(location).toBe('/users')
  })

  it('/users/new is the active users list with the create dialog, titled after it', async () => {
    const { status, html } = await page(admin, '/users/new')
    expect(status).toBe(200)
    expect(html).toContain('<title>Create a New User | Sightline</title>')
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'NewUserDialog', 'ListSearch'].sort())
    expect(html).toContain('href="/users" aria-current="page">Active Users</a>')
    expect([...html.matchAll(/<a href="\/users\/(\d+)"/g)].map((m) => Number(m[1]))).toContain(activeId)
  })
})

describe('account actions on a profile', () => {
  const actionsOf = (html: string) => islandProps(html, 'UserActions').user

  it('come with the account\'s state for an admin on someone else\'s profile', async () => {
    expect(actionsOf((await page(admin, `/users/${activeId}`)).html))
      .toEqual({ id: activeId, name: 'Al Active', is_disabled: false, is_invitation_pending: false })
    expect(actionsOf((await page(admin, `/users/${pendingId}`)).html))
      .toEqual({ id: pendingId, name: 'Pia Pending', is_disabled: false, is_invitation_pending: true })
    const disabled = (await page(admin, `/users/${disabledId}`)).html
    expect(actionsOf(disabled)).toEqual({ id: disabledId, name: 'Di Disabled', is_disabled: true, is_invitation_pending: false })
    expect(islandsOf(disabled)).not.toContain('ProfileEditor') // read-only, with Enable
  })

  it('are not offered on one\'s own profile, nor to members', async () => {
    for (const path of ['/users/me', `/users/${adminId}`]) expect(islandsOf((await page(admin, path)).html), path).not.toContain('UserActions')
    expect(islandsOf((await page(member, `/users/${pendingId}`)).html)).toEqual(SHELL_ISLANDS)
  })
})

describe('notices the actions leave', () => {
  it('says once that a user was disabled or enabled, on their profile', async () => {
    admin.cookies.set('sightline_flash', 'user_disabled')
    expect((await page(admin, `/users/${disabledId}`)).html).toContain('User Di Disabled is now disabled.')
    expect(admin.cookies.has('sightline_flash')).toBe(false)
    expect((await page(admin, `/users/${disabledId}`)).html).not.toContain('is now disabled')
    admin.cookies.set('sightline_flash', 'user_enabled')
    expect((await page(admin, `/users/${activeId}`)).html).toContain('User Al Active is now enabled.')
  })

  it('says once that an invitation was deleted, on the list; unknown names say nothing', async () => {
    admin.cookies.set('sightline_flash', 'user_deleted')
    expect((await page(admin, '/users/pending')).html).toContain('The invitation has been deleted.')
    expect(admin.cookies.has('sightline_flash')).toBe(false)
    admin.cookies.set('sightline_flash', '<b>made up</b>')
    const { html } = await page(admin, '/users/pending')
    expect(html).not.toContain('made up')
    expect(html).not.toContain('The invitation has been deleted.')
  })
})

describe('the invitation page a link opens', () => {
  it('keeps its address out of other sites\' referrers, but not its own, so a browser posts its form with an Origin', async () => {
    const { invite_link: link } = await (await admin.post('/api/users', { name: 'Rae Referred', email: 'rae@example.com' })).json()
    const res = await new Client(t.app).get(new URL(link).pathname)
    expect(res.status).toBe(200)
    // under 'no-referrer' a browser sends `Origin: null` with the form, which the cross-site check refuses
    expect(res.headers.get('referrer-policy')).toBe('same-origin')
  })
})
