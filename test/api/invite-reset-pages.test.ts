import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * The signed-out pages behind invitation and reset links, and "forgot password" (reference §1.3): plain forms, no
 * script; opening a link spends nothing, setting the password spends it and signs the user in.
 */
let t: TestApp
let admin: Client
const pathOf = (link: string) => new URL(link).pathname
const SESSION = 'sightline_session'

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
})
afterAll(() => t.close())

async function inviteLink(name: string, email: string): Promise<{ id: number; path: string }> {
  const body = await (await admin.post('/api/users', { name, email })).json()
  return { id: body.id, path: pathOf(body.invite_link) }
}

async function resetLink(id: number): Promise<string> {
  return pathOf((await (await admin.post(`/api/users/${id}/reset_password`)).json()).reset_link)
}

const setPassword = (client: Client, path: string, password: string) => client.request('POST', path, { form: { password } })
const resetRows = async (email: string) => (await t.db.sql<{ n: number }[]>`
  select count(*)::int as n from user_tokens k join users u on u.id = k.user_id where u.email = ${email} and k.purpose = 'reset'`)[0].n

describe('invitation links', () => {
  it('shows a password form without spending the link, then sets the password, accepts and signs in', async () => {
    const { id, path } = await inviteLink('Ivy Invitee', 'ivy@example.com')
    for (let i = 0; i < 2; i++) {
      const page = await new Client(t.app).get(path)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toMatch(/<form[^>]*method="post"/)
      expect(html).toContain('name="password"')
      expect(html).toContain('Ivy Invitee')
      expect(html).not.toMatch(/<script/i)
    }
    const client = new Client(t.app)
    const res = await setPassword(client, path, 'ivy-secret')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=`))).toBe(true)
    const session = await client.get('/api/session')
    expect(session.status).toBe(200)
    expect((await session.json()).user.id).toBe(id)
    const [row] = await t.db.sql<{ is_invitation_pending: boolean; keys: number }[]>`
      select is_invitation_pending, (select count(*)::int from api_keys where user_id = ${id} and active) as keys from users where id = ${id}`
    expect(row).toEqual({ is_invitation_pending: false, keys: 1 })
    expect((await signInAs(t.app, 'ivy@example.com', 'ivy-secret')).res.status).toBe(302)
  })

  it('refuses a second use of the same link, on the page and in the form', async () => {
    const { path } = await inviteLink('Una Used', 'una@example.com')
    expect((await setPassword(new Client(t.app), path, 'first-password')).status).toBe(302)
    const again = await setPassword(new Client(t.app), path, 'second-password')
    expect(again.status).toBe(400)
    expect(again.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=`))).toBe(false)
    expect(await again.text()).toContain('Your invite link is invalid, has expired or was already used. Please ask for a new one.')
    expect((await new Client(t.app).get(path)).status).toBe(400)
    expect((await signInAs(t.app, 'una@example.com', 'second-password')).res.status).toBe(200)
  })

  it('refuses an expired link', async () => {
    const { id, path } = await inviteLink('Eli Expired', 'eli@example.com')
    await t.db.sql`update user_tokens set expires_at = now() - interval '1 second' where user_id = ${id}`
    expect((await new Client(t.app).get(path)).status).toBe(400)
    const res = await setPassword(new Client(t.app), path, 'eli-password')
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Please ask for a new one.')
  })

  it('refuses a tampered link, a link of the other purpose and nonsense, without crashing', async () => {
    const { path } = await inviteLink('Tia Tampered', 'tia@example.com')
    const token = path.split('/').at(-1)!
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
    for (const bad of [`/invite/${flipped}`, `/reset/${token}`, '/invite/x', `/invite/${'a'.repeat(5000)}`, '/invite/a.b.c', '/invite/%00']) {
      expect((await new Client(t.app).get(bad)).status, bad).toBe(400)
      expect((await setPassword(new Client(t.app), bad, 'tia-password')).status, bad).toBe(400)
    }
    // the real link still works after all that
    expect((await setPassword(new Client(t.app), path, 'tia-password')).status).toBe(302)
  })

  it("refuses short, empty and unrepeated passwords in the profile form's words, keeping the link", async () => {
    const { path } = await inviteLink('Sam Short', 'sam@example.com')
    const short = await setPassword(new Client(t.app), path, '12345')
    expect(short.status).toBe(400)
    expect(await short.text()).toContain('This field is too short.')
    const empty = await setPassword(new Client(t.app), path, '')
    expect(empty.status).toBe(400)
    expect(await empty.text()).toContain('This field is required.')
    const differing = await new Client(t.app).request('POST', path, { form: { password: '123456', repeat: '654321' } })
    expect(differing.status).toBe(400)
    expect(await differing.text()).toContain('Passwords don&#x27;t match')
    expect((await new Client(t.app).request('POST', path, { form: { password: '123456', repeat: '123456' } })).status).toBe(302)
  })

  it('refuses a form posted from another site, leaving the link unspent', async () => {
    const { path } = await inviteLink('Xia Crosssite', 'xia@example.com')
    const res = await new Client(t.app).request('POST', path, {
      form: { password: 'evil-password' }, headers: { origin: 'https://evil.example', host: 'localhost' },
    })
    expect(res.status).toBe(400)
    expect((await new Client(t.app).get(path)).status).toBe(200)
  })

  it("refuses a disabled user's link", async () => {
    const { id, path } = await inviteLink('Dee Disabled', 'dee@example.com')
    await t.db.sql`update users set disabled_at = now() where id = ${id}`
    expect((await new Client(t.app).get(path)).status).toBe(400)
    expect((await setPassword(new Client(t.app), path, 'dee-password')).status).toBe(400)
  })
})

describe('reset links', () => {
  it("sets a new password for an active user, ending the user's other sessions; the old password stops working", async () => {
    const { id } = await addUser(t, { name: 'Rae Reset', email: 'rae@example.com', password: 'old-password' })
    const old = (await signInAs(t.app, 'rae@example.com', 'old-password')).client
    expect((await old.get('/api/session')).status).toBe(200)
    const path = await resetLink(id)
    expect((await new Client(t.app).get(path)).status).toBe(200)
    const client = new Client(t.app)
    expect((await setPassword(client, path, 'new-password')).status).toBe(302)
    expect((await (await client.get('/api/session')).json()).user.id).toBe(id)
    expect((await old.get('/api/session')).status).toBe(401)
    expect((await signInAs(t.app, 'rae@example.com', 'old-password')).res.status).toBe(200)
    expect((await signInAs(t.app, 'rae@example.com', 'new-password')).res.status).toBe(302)
    expect((await setPassword(new Client(t.app), path, 'third-password')).status).toBe(400)
  })
})

describe('/forgot', () => {
  it('is linked from the sign-in page and needs no script', async () => {
    expect(await (await new Client(t.app).get('/login')).text()).toContain('href="/forgot"')
    const page = await new Client(t.app).get('/forgot')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('name="email"')
    expect(html).not.toMatch(/<script/i)
  })

  it('answers the same for known and unknown addresses, making a reset link only for the known one', async () => {
    await addUser(t, { name: 'Kim Known', email: 'kim@example.com', password: 'kim-password' })
    expect(await resetRows('kim@example.com')).toBe(0)
    const known = await new Client(t.app).request('POST', '/forgot', { form: { email: 'Kim@Example.com' } })
    const unknown = await new Client(t.app).request('POST', '/forgot', { form: { email: 'nobody@example.com' } })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()]
    expect(knownHtml).toBe(unknownHtml)
    expect(knownHtml).toContain('If an account exists for that address, we sent it a link to reset your password.')
    expect(knownHtml).not.toContain('/reset/')
    expect(await resetRows('kim@example.com')).toBe(1)
    expect(await t.db.sql`select 1 from users where email = 'nobody@example.com'`).toHaveLength(0)
  })

  it('makes no link for a disabled user', async () => {
    await addUser(t, { name: 'Dan Disabled', email: 'dan@example.com', password: 'dan-password', disabled: true })
    expect((await new Client(t.app).request('POST', '/forgot', { form: { email: 'dan@example.com' } })).status).toBe(200)
    expect(await resetRows('dan@example.com')).toBe(0)
  })

  it('limits requests per email address, known or not', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await new Client(t.app).request('POST', '/forgot', { form: { email: 'flood@example.com' } })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })

  it('refuses an empty address with a clear message', async () => {
    const res = await new Client(t.app).request('POST', '/forgot', { form: { email: '' } })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('This field is required.')
  })
})
