import { expect } from 'vitest'
import { Client, type TestApp } from './app.ts'
import { parseAuthnRequest, type Answer, type AuthnRequest, type TestIdp } from './saml-idp.ts'

/** Turn SAML on for the test organization through the settings API, as an admin does. */
export async function configureSaml(admin: Client, idp: TestIdp, o: { dynamic?: boolean; extra?: Record<string, unknown> } = {}) {
  const settings = o.dynamic
    ? { auth_saml_enabled: true, auth_saml_type: 'dynamic', auth_saml_metadata_url: idp.metadataUrl, ...o.extra }
    : { auth_saml_enabled: true, auth_saml_type: 'static', auth_saml_sso_url: idp.ssoUrl, auth_saml_x509_cert: idp.key.cert, ...o.extra }
  const res = await admin.request('POST', '/api/settings/organization', { json: settings })
  expect(res.status, await res.clone().text()).toBe(200)
}

/** Start a sign-in at /saml/login; returns the request the browser was sent to the provider with. */
export async function beginSaml(t: TestApp, client = new Client(t.app), next?: string): Promise<{ client: Client; request: AuthnRequest }> {
  const res = await client.get(`/saml/login${next ? `?next=${encodeURIComponent(next)}` : ''}`)
  expect(res.status).toBe(302)
  return { client, request: parseAuthnRequest(res.headers.get('location')!) }
}

/** The provider's form post to the assertion consumer, from the provider's own site as a browser sends it. */
export function postResponse(client: Client, idp: TestIdp, samlResponse: string, relayState?: string | null) {
  const form: Record<string, string> = { SAMLResponse: samlResponse }
  if (relayState) form.RelayState = relayState
  return client.request('POST', '/saml/callback', { form, headers: { origin: idp.url, 'sec-fetch-site': 'cross-site' } })
}

/** A full answer to `request` for `email`, every check satisfied unless `bend` says otherwise. */
export function answerTo(idp: TestIdp, request: AuthnRequest, email: string, bend: Partial<Answer> = {}): string {
  return idp.response({ inResponseTo: request.id, audience: request.issuer, acsUrl: request.acsUrl, email, ...bend })
}

export const hasSessionCookie = (res: Response) => res.headers.getSetCookie().some((c) => /^sightline_session=[^;]+/.test(c))
