import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { answerTo, beginSaml, configureSaml, hasSessionCookie, postResponse } from '../helpers/saml-flow.ts'
import { makeSigningKey, TestIdp } from '../helpers/saml-idp.ts'

// An attacker at the assertion consumer: forged and altered signatures, assertions meant for another service, out of
// their time window, replayed, or answering no request Sightline sent. Each is refused with no session, no account
// created or changed, and a login_failed event in the audit log.

let t: TestApp
let idp: TestIdp

beforeAll(async () => {
  idp = await new TestIdp().start()
  t = await createTestApp()
  const admin = await setUp(t.app)
  expect((await admin.request('POST', '/api/groups', { json: { name: 'analysts' } })).status).toBe(200)
  await configureSaml(admin, idp)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await idp?.stop()
})

const userCount = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from users`)[0].n
const lastFailure = async () => (await t.db.sql<{ p: Record<string, unknown> }[]>`
  select additional_properties as p from events where action = 'login_failed' order by id desc limit 1`)[0]?.p

/** Post `response` and check everything an attacker must not get. */
async function expectRefused(client: Client, response: string, reason = 'invalid_response', detail?: RegExp) {
  const before = await userCount()
  const res = await postResponse(client, idp, response)
  expect(res.status).toBe(400)
  expect(await res.text()).toContain('SAML sign-in failed')
  expect(hasSessionCookie(res)).toBe(false)
  expect((await client.get('/api/session')).status).toBe(401)
  expect(await userCount()).toBe(before)
  const failure = await lastFailure()
  expect(failure).toMatchObject({ method: 'saml', reason })
  if (detail) expect(failure.detail).toMatch(detail)
}

describe('the SAML assertion consumer', () => {
  it('refuses an assertion signed with a key other than the provider’s', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'mallory@example.com', { signWith: makeSigningKey('Mallory') }), 'invalid_response', /signature/i)
  })

  it('refuses a signed assertion altered afterwards (another e-mail, an admin group slipped in)', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'eve@example.com', {
      tamper: (xml) => xml.replace('eve@example.com', 'ada@example.com'),
    }))
    const again = await beginSaml(t)
    await expectRefused(again.client, answerTo(idp, again.request, 'eve@example.com', {
      attributes: { RedashGroups: ['analysts'] }, tamper: (xml) => xml.replace('>analysts<', '>admin<'),
    }))
  })

  it('refuses an assertion with its signature removed', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'eve@example.com', {
      tamper: (xml) => xml.replace(/<(\w+:)?Signature[\s\S]*<\/(\w+:)?Signature>/, ''),
    }))
  })

  it('refuses an assertion meant for another service (audience)', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'eve@example.com', { audience: 'https://other-service.example/saml' }), 'invalid_response', /audience/i)
  })

  it('refuses an expired assertion, and one not valid yet', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'eve@example.com', { issuedAt: new Date(Date.now() - 3600_000) }), 'invalid_response', /expired|no valid subject confirmation/i)
    const later = await beginSaml(t)
    await expectRefused(later.client, answerTo(idp, later.request, 'eve@example.com', { issuedAt: new Date(Date.now() + 3600_000) }), 'invalid_response', /not yet valid/i)
  })

  it('refuses a replay of a response that already signed someone in', async () => {
    const { client, request } = await beginSaml(t)
    const response = answerTo(idp, request, 'rita@example.com')
    expect((await postResponse(client, idp, response)).status).toBe(302)
    await expectRefused(new Client(t.app), response, 'invalid_response', /InResponseTo/)
  })

  it('refuses a second response carrying an assertion already used, even answering a fresh request', async () => {
    const first = await beginSaml(t)
    const assertionId = '_replayed-assertion'
    expect((await postResponse(first.client, idp, answerTo(idp, first.request, 'rita@example.com', { assertionId }))).status).toBe(302)
    const second = await beginSaml(t)
    await expectRefused(second.client, answerTo(idp, second.request, 'rita@example.com', { assertionId }), 'replay')
  })

  it('refuses a response to a request Sightline never sent, and an unsolicited one', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'eve@example.com', { inResponseTo: '_made-up-request' }), 'invalid_response', /InResponseTo is not valid/)
    const unsolicited = await beginSaml(t)
    await expectRefused(unsolicited.client, answerTo(idp, unsolicited.request, 'eve@example.com', { inResponseTo: null }), 'invalid_response', /InResponseTo is missing/)
  })

  it('refuses a response whose request failed once already (a failed answer burns the request)', async () => {
    const { client, request } = await beginSaml(t)
    await expectRefused(client, answerTo(idp, request, 'eve@example.com', { audience: 'https://other-service.example/saml' }))
    await expectRefused(client, answerTo(idp, request, 'eve@example.com'), 'invalid_response', /InResponseTo is not valid/)
  })

  it('refuses garbage, an empty post, and XML that is no SAML response, with 400 and never a 500', async () => {
    for (const response of ['not base64 at all!!', Buffer.from('<html/>').toString('base64'), Buffer.from('<<<').toString('base64')]) {
      await expectRefused(new Client(t.app), response)
    }
    const empty = await new Client(t.app).request('POST', '/saml/callback', { form: {} })
    expect(empty.status).toBe(400)
    expect(await lastFailure()).toMatchObject({ method: 'saml', reason: 'no_response' })
  })

  it('never follows a RelayState off the site', async () => {
    const { client, request } = await beginSaml(t)
    const res = await postResponse(client, idp, answerTo(idp, request, 'rita@example.com'), 'https://evil.example/steal')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/steal')
    const again = await beginSaml(t)
    const res2 = await postResponse(again.client, idp, answerTo(idp, again.request, 'rita@example.com'), '//evil.example')
    expect(res2.headers.get('location')!.startsWith('//')).toBe(false)
  })
})
