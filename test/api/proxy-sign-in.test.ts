import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, createTestApp, setUp, type TestApp } from '../helpers/app.ts'

// Sign-in by an access proxy: the user header only from SIGHTLINE_TRUSTED_PROXIES, and a JWT the proxy signs,
// checked against its published keys (issuer, audience, expiry).

const PROXY = '10.1.2.3'
const STRANGER = '203.0.113.9'
let t: TestApp
let keysServer: http.Server
let signingKey: CryptoKey
let certsUrl: string

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true })
  signingKey = pair.privateKey
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'proxy-key', alg: 'ES256', use: 'sig' }
  keysServer = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify({ keys: [jwk] }))
  })
  await new Promise<void>((resolve) => keysServer.listen(0, '127.0.0.1', resolve))
  certsUrl = `http://127.0.0.1:${(keysServer.address() as AddressInfo).port}/certs`
  t = await createTestApp({ remoteUserHeader: 'x-remote-user', trustedProxies: [PROXY] })
  const admin = await setUp(t.app)
  await addUser(t, { name: 'Known Person', email: 'known@example.com', password: 'known-password' })
  const res = await admin.post('/api/settings/organization', {
    auth_jwt_login_enabled: true, auth_jwt_auth_issuer: 'https://proxy.example', auth_jwt_auth_audience: 'sightline-app',
    auth_jwt_auth_public_certs_url: certsUrl, auth_jwt_auth_header_name: 'x-proxy-assertion',
  })
  expect(res.status, await res.clone().text()).toBe(200)
}, 60_000)
afterAll(async () => {
  await t?.close()
  keysServer?.closeAllConnections()
  keysServer?.close()
})

/** A request as it arrives on a socket from `peer`. */
const from = (peer: string, path: string, headers: Record<string, string>) =>
  t.app.request(path, { headers }, { incoming: { socket: { remoteAddress: peer } } })
const sessionUser = async (res: Response) => ((await res.json()) as { user?: { email: string } }).user?.email
const lastFailure = async () => (await t.db.sql`
  select additional_properties as p from events where action = 'login_failed' order by id desc limit 1`)[0]?.p
const jwt = (claims: Record<string, unknown>, o: { audience?: string; expiresIn?: string | number } = {}) =>
  new SignJWT({ email: 'jwt.person@example.com', name: 'Jay Double', ...claims }).setProtectedHeader({ alg: 'ES256', kid: 'proxy-key' })
    .setIssuer('https://proxy.example').setAudience(o.audience ?? 'sightline-app').setSubject('proxy-user-1')
    .setIssuedAt().setExpirationTime(o.expiresIn ?? '5m').sign(signingKey)

describe('remote user header', () => {
  it('signs in the named user when it comes from a trusted proxy', async () => {
    const res = await from(PROXY, '/api/session', { 'x-remote-user': 'known@example.com' })
    expect(res.status).toBe(200)
    expect(await sessionUser(res)).toBe('known@example.com')
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))).toBe(true)
  })

  it('is ignored from any other address, and the attempt is recorded', async () => {
    const res = await from(STRANGER, '/api/session', { 'x-remote-user': 'known@example.com', 'x-forwarded-for': PROXY })
    expect(res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))).toBe(false)
    expect(await sessionUser(res)).toBeUndefined()
    expect(await lastFailure()).toMatchObject({ method: 'remote_user', reason: 'untrusted_proxy', ip: STRANGER })
  })
})

describe('JWT from an access proxy', () => {
  it('signs in (creating the user) with a valid token', async () => {
    const res = await from(STRANGER, '/api/session', { 'x-proxy-assertion': await jwt({}) })
    expect(await sessionUser(res)).toBe('jwt.person@example.com')
    const [event] = await t.db.sql`select additional_properties as p from events where action = 'login' order by id desc limit 1`
    expect(event.p).toMatchObject({ method: 'jwt', created: true })
  })

  it('refuses an expired token', async () => {
    const res = await from(STRANGER, '/api/session', { 'x-proxy-assertion': await jwt({}, { expiresIn: Math.floor(Date.now() / 1000) - 600 }) })
    expect(await sessionUser(res)).toBeUndefined()
    expect(await lastFailure()).toMatchObject({ method: 'jwt', reason: 'token_expired' })
  })

  it('refuses a token for another audience', async () => {
    const res = await from('198.51.100.7', '/api/session', { 'x-proxy-assertion': await jwt({}, { audience: 'another-app' }) })
    expect(await sessionUser(res)).toBeUndefined()
    expect(await lastFailure()).toMatchObject({ method: 'jwt', reason: 'token_aud_mismatch' })
  })

  it('refuses a token signed by another key', async () => {
    const other = await generateKeyPair('ES256')
    const forged = await new SignJWT({ email: 'known@example.com' }).setProtectedHeader({ alg: 'ES256', kid: 'proxy-key' })
      .setIssuer('https://proxy.example').setAudience('sightline-app').setSubject('x').setExpirationTime('5m').sign(other.privateKey)
    const res = await from('198.51.100.8', '/api/session', { 'x-proxy-assertion': forged })
    expect(await sessionUser(res)).toBeUndefined()
    expect(await lastFailure()).toMatchObject({ method: 'jwt', reason: 'token_invalid' })
  })
})
