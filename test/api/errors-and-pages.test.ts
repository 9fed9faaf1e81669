import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
})
afterAll(() => t.close())

const moduleScripts = (html: string) => html.match(/<script type="module"/g)?.length ?? 0

describe('errors', () => {
  it('answers unknown API paths with 404 JSON', async () => {
    const res = await admin.get('/api/no-such-thing')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Not found.' })
  })

  it('answers unknown pages with the 404 text of spec 1 §2', async () => {
    const res = await admin.get('/no/such/page')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('It seems like the page you&#x27;re looking for cannot be found.')
  })

  it.each(['abc', '0', '-1', '1.5', '99999999999999999999'])('answers user id %s with 404, never 500', async (id) => {
    const res = await admin.get(`/api/users/${id}`)
    expect(res.status).toBe(404)
    expect(await res.json()).toHaveProperty('message')
  })

  it('answers a missing user with 404', async () => {
    expect((await admin.get('/api/users/4242')).status).toBe(404)
  })

  it('sends JSON errors to clients that ask for JSON outside /api', async () => {
    const res = await admin.request('POST', '/verification_email/', { headers: { accept: 'application/json' } })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ message: 'The mail server is not configured.' })
  })
})

describe('pages', () => {
  it('the home page has the shell, the onboarding and the favourites, and loads only its islands', async () => {
    const html = await (await admin.get('/')).text()
    expect(html).toContain('Welcome...')
    expect(html).toContain('Connect to any data source, easily visualize and share your data')
    expect(html).toContain('href="/data_sources/new"')
    expect(html).toContain('Favorite Dashboards will appear here')
    expect(html).toContain('Favorite Queries will appear here')
    expect(moduleScripts(html)).toBe(1)
    for (const name of ['HelpDrawer', 'Toaster', 'SessionExpiredModal', 'BeaconConsent']) expect(html).toContain(`data-name="${name}"`)
  })

  it.each(['/login', '/setup', '/no/such/page', '/help'])('%s ships no JavaScript', async (path) => {
    const html = await (await new Client(t.app).get(path)).text()
    expect(moduleScripts(html)).toBe(0)
    expect(html).not.toMatch(/\.js"/)
  })

  it('serves built assets gzipped and cached for good', async () => {
    const html = await (await admin.get('/')).text()
    const css = /href="(\/static\/app-[A-Z0-9]{8}\.css)"/.exec(html)![1]
    const res = await admin.get(css, { 'accept-encoding': 'gzip' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('cache-control')).toContain('immutable')
  })

  it('draws a profile picture for every user without calling another site', async () => {
    const res = await admin.get('/avatar/3e3417d7ef77d5932a6734b916515ed5.svg')
    expect(res.headers.get('content-type')).toBe('image/svg+xml')
    expect(await res.text()).toMatch(/^<svg/)
    expect((await admin.get('/avatar/not-a-hash.svg')).status).toBe(404)
  })

  it('allows no inline script but the page\'s own boot script, by a fresh nonce', async () => {
    const first = await admin.get('/')
    const csp = first.headers.get('content-security-policy')!
    const nonce = /'nonce-([\w-]+)'/.exec(csp)![1]
    expect(csp).toMatch(/script-src 'self' 'nonce-[\w-]+';/)
    expect(await first.text()).toContain(`<script type="module" nonce="${nonce}">`)
    const second = await admin.get('/')
    expect(second.headers.get('content-security-policy')).not.toContain(nonce)
    const login = await new Client(t.app).get('/login')
    expect(login.headers.get('content-security-policy')).toContain("script-src 'self';")
  })

  it('sets security headers on pages', async () => {
    const res = await admin.get('/')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
