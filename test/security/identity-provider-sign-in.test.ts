import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { startOidcProvider, walkProvider, type TestProvider } from '../helpers/oidc-provider.ts'

// The ways in through an identity provider, as an attacker tries them: a replayed callback (state used twice), a
// callback planted in someone else's browser (login CSRF), a replayed ID token (another sign-in's nonce), a return
// address pointing off-site, and a user header forged by someone who is not the proxy.

let provider: TestProvider
let t: TestApp

beforeAll(async () => {
  provider = await startOidcProvider({
    clients: [{ client_id: 'sightline', client_secret: 'sightline-secret', redirect_uris: ['http://localhost/oidc/callback'] }],
    users: {
      mallory: { email: 'mallory@corp.example', email_verified: true, name: 'Mallory' },
      victim: { email: 'victim@corp.example', email_verified: true, name: 'Victim' },
    },
  })
  t = await createTestApp({ remoteUserHeader: 'x-remote-user', trustedProxies: ['10.9.9.9'] })
  const admin = await setUp(t.app)
  expect((await admin.post('/api/settings/organization', {
    auth_oidc_enabled: true, auth_oidc_issuer_url: provider.issuer, auth_oidc_client_id: 'sightline', auth_oidc_client_secret: 'sightline-secret',
  })).status).toBe(200)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await provider?.stop()
})

/** Start a sign-in in `client` as `account`, and return the callback address the provider sends back (not yet followed). */
async function callbackFor(client: Client, account: string, start = '/oidc/login') {
  provider.autoLogin = account
  const res = await client.get(start)
  const back = await walkProvider(res.headers.get('location')!, 'http://localhost/')
  return back.pathname + back.search
}
const sessions = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from sessions`)[0].n
const lastFailure = async () => (await t.db.sql`
  select additional_properties as p from events where action = 'login_failed' order by id desc limit 1`)[0]?.p

describe('identity provider sign-in under attack', () => {
  it('a callback replayed with the same state (and its cookie) signs nobody in a second time', async () => {
    const client = new Client(t.app)
    const callback = await callbackFor(client, 'mallory')
    const stateCookie = client.cookies.get('sightline_sign_in_state')!
    expect((await client.get(callback)).status).toBe(302)
    const before = await sessions()
    const replay = new Client(t.app)
    replay.cookies.set('sightline_sign_in_state', stateCookie)
    const res = await replay.get(callback)
    expect(res.status).toBe(400)
    expect(await sessions()).toBe(before)
    expect(await lastFailure()).toMatchObject({ method: 'oidc', reason: 'state_unknown' })
  })

  it("an attacker's callback planted in another browser (no state cookie there) is refused", async () => {
    const callback = await callbackFor(new Client(t.app), 'mallory')
    const victim = new Client(t.app)
    const res = await victim.get(callback)
    expect(res.status).toBe(400)
    expect(victim.cookies.has('sightline_session')).toBe(false)
    expect(await lastFailure()).toMatchObject({ reason: 'state_mismatch' })
  })

  it("a callback with another of the browser's states is refused", async () => {
    const client = new Client(t.app)
    const first = await callbackFor(client, 'mallory')
    await callbackFor(client, 'mallory') // a second start replaces the bound state
    expect((await client.get(first)).status).toBe(400)
  })

  it("an ID token replayed from an earlier sign-in fails the nonce check", async () => {
    const earlier = new Client(t.app)
    expect((await earlier.get(await callbackFor(earlier, 'victim'))).status).toBe(302)
    provider.replayIdToken = true
    try {
      const client = new Client(t.app)
      const res = await client.get(await callbackFor(client, 'mallory'))
      expect(res.status).toBe(403)
      expect(client.cookies.has('sightline_session')).toBe(false)
      expect(await lastFailure()).toMatchObject({ method: 'oidc', reason: 'token_refused' })
    } finally {
      provider.replayIdToken = false
    }
  })

  it('a return-to address off the site is followed only as a path on this site', async () => {
    for (const next of ['https://evil.example/steal', '//evil.example/steal', '/\\evil.example', 'javascript:alert(1)']) {
      const client = new Client(t.app)
      const res = await client.get(await callbackFor(client, 'mallory', `/oidc/login?next=${encodeURIComponent(next)}`))
      expect(res.status, next).toBe(302)
      const location = res.headers.get('location')!
      expect(location, next).toMatch(/^\/(?![/\\])/)
    }
  })

  it('a forged user header from an address that is not the proxy is ignored, and recorded', async () => {
    const res = await t.app.request('/api/session', { headers: { 'x-remote-user': 'victim@corp.example', 'x-forwarded-for': '10.9.9.9' } },
      { incoming: { socket: { remoteAddress: '192.0.2.66' } } })
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))).toBe(false)
    expect(await lastFailure()).toMatchObject({ method: 'remote_user', reason: 'untrusted_proxy', ip: '192.0.2.66' })
  })
})
