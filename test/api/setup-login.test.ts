import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('first run', () => {
  it('sends every page to /setup while no organization exists', async () => {
    const client = new Client(t.app)
    for (const path of ['/', '/login']) {
      const res = await client.get(path)
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/setup')
    }
  })

  it('answers API calls with 401 JSON before setup', async () => {
    const res = await new Client(t.app).get('/api/session')
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: "Couldn't find resource. Please login and try again." })
  })

  it('shows each invalid field with the form text, keeping what was typed', async () => {
    const res = await new Client(t.app).request('POST', '/setup', { form: { name: 'Ada', email: 'not-an-email', password: '123', org_name: '' } })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('This field must be a valid email.')
    expect(html).toContain('This field is too short.')
    expect(html).toContain('This field is required.')
    expect(html).toContain('value="Ada"')
    const [{ count }] = await t.db.sql`select count(*)::int as count from organizations`
    expect(count).toBe(0)
  })

  it('creates the organization, builtin groups and first admin, and signs them in', async () => {
    const client = await setUp(t.app)
    const session = await (await client.get('/api/session')).json()
    expect(session.user).toMatchObject({ name: ADMIN.name, email: ADMIN.email })
    expect(session.user.permissions).toEqual(expect.arrayContaining(['admin', 'super_admin', 'create_query', 'view_query']))
    const groups = await t.db.sql`select name, type, permissions from groups order by name`
    expect(groups.map((g) => [g.name, g.type])).toEqual([['admin', 'builtin'], ['default', 'builtin']])
    expect(groups[1].permissions).toEqual(expect.arrayContaining(['create_dashboard', 'list_data_sources', 'execute_query']))
    const [user] = await t.db.sql`select password_hash from users`
    expect(user.password_hash).toMatch(/^scrypt\$/)
    expect(user.password_hash).not.toContain(ADMIN.password)
  })

  it('refuses a second setup and leads home instead', async () => {
    const res = await new Client(t.app).request('POST', '/setup', { form: { ...ADMIN, email: 'eve@example.com' } })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    const [{ count }] = await t.db.sql`select count(*)::int as count from users`
    expect(count).toBe(1)
    expect((await new Client(t.app).get('/setup')).headers.get('location')).toBe('/')
  })
})

describe('sign in and out', () => {
  it('signs in with the right password and follows a same-site next', async () => {
    const { client, res } = await signInAs(t.app, ADMIN.email.toUpperCase(), ADMIN.password, '/queries?page=2')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/queries?page=2')
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sightline_session='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).not.toMatch(/Max-Age/) // no "remember me": ends with the browser session
    expect((await client.get('/api/session')).status).toBe(200)
  })

  it('keeps the cookie for 30 days with remember me', async () => {
    const client = new Client(t.app)
    const res = await client.request('POST', '/login', { form: { email: ADMIN.email, password: ADMIN.password, remember: 'on' } })
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sightline_session='))!
    expect(cookie).toMatch(/Max-Age=2592000/)
  })

  it.each(['https://evil.example/steal', '//evil.example', '/\\evil.example', 'javascript:alert(1)'])('never follows next=%s off site', async (next) => {
    const { res } = await signInAs(t.app, ADMIN.email, ADMIN.password, next)
    expect(res.status).toBe(302)
    const location = res.headers.get('location')!
    expect(location.startsWith('/')).toBe(true)
    expect(location.startsWith('//')).toBe(false)
    expect(location).not.toContain('evil.example/steal'.replace('/steal', '')) // no foreign host
  })

  it('says "Wrong email or password." for a bad password and for an unknown email alike', async () => {
    for (const [email, password] of [[ADMIN.email, 'wrong password'], ['nobody@example.com', ADMIN.password]]) {
      const { res } = await signInAs(t.app, email, password)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('Wrong email or password.')
      expect(res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))).toBe(false)
    }
  })

  it('refuses disabled users', async () => {
    await addUser(t, { name: 'Dee', email: 'dee@example.com', password: 'dee-password', disabled: true })
    const { res } = await signInAs(t.app, 'dee@example.com', 'dee-password')
    expect(await res.text()).toContain('Wrong email or password.')
  })

  it('signing out revokes the session on the server, even if the cookie is kept', async () => {
    const { client } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    const stolen = client.cookies.get('sightline_session')!
    const res = await client.request('POST', '/logout')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login')
    const replay = new Client(t.app)
    replay.cookies.set('sightline_session', stolen)
    expect((await replay.get('/api/session')).status).toBe(401)
    const [{ count }] = await t.db.sql`select count(*)::int as count from sessions where user_id = 1 and token_hash = sha256(${stolen}::bytea)`
    expect(count).toBe(0)
  })

  it('sends anonymous page visits to login with the address as next', async () => {
    const res = await new Client(t.app).get('/?tab=1')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/login?next=%2F%3Ftab%3D1')
  })

  it('records sign-in and sign-out in the audit log', async () => {
    const { client } = await signInAs(t.app, ADMIN.email, ADMIN.password)
    await client.request('POST', '/logout')
    const actions = await t.db.sql`select action from events where object_type = 'redash' and user_id = 1 order by id desc limit 2`
    expect(actions.map((a) => a.action)).toEqual(['logout', 'login'])
  })

  it('slows password guessing after 5 failures: an attempt before the delay is refused unchecked, with 429', async () => {
    await addUser(t, { name: 'Gus', email: 'gus@example.com', password: 'gus-password' })
    for (let i = 0; i < 5; i++) await signInAs(t.app, 'gus@example.com', `guess-${i}`)
    const { res } = await signInAs(t.app, 'gus@example.com', 'gus-password')
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.text()).toContain('Too many failed sign-in attempts for this email. Please wait 1 second and try again.')
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))).toBe(false)
  })

  it('refuses a sign-in form posted from another site', async () => {
    const client = new Client(t.app)
    const res = await client.request('POST', '/login', {
      form: { email: ADMIN.email, password: ADMIN.password },
      headers: { origin: 'https://evil.example', host: 'localhost' },
    })
    expect(res.status).toBe(400)
  })
})
