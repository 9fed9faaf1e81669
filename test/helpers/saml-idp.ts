import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { inflateRawSync } from 'node:zlib'
import { DOMParser } from '@xmldom/xmldom'
import { SignedXml } from 'xml-crypto'

/**
 * A SAML 2.0 identity provider for the tests: it reads the service provider's AuthnRequest from the redirect, and
 * answers with Responses whose assertions xml-crypto signs (RSA-SHA256, exclusive C14N) with a key and certificate
 * openssl makes for the run. It serves its metadata, and for browsers an auto-posting form, as a real provider does.
 * Every part of an answer can be bent (audience, times, InResponseTo, signing key) to try the checks.
 */

export interface KeyPair { key: string; cert: string }

/** A fresh RSA key and self-signed certificate, made by openssl. */
export function makeSigningKey(name: string): KeyPair {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-saml-'))
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
      '-keyout', 'idp.key', '-out', 'idp.crt'], { cwd: dir, stdio: 'pipe' })
    return { key: fs.readFileSync(path.join(dir, 'idp.key'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'idp.crt'), 'utf8') }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The certificate's base64 body, as an admin pastes it and metadata carries it. */
export const certBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '')

export interface AuthnRequest { id: string; acsUrl: string; issuer: string; relayState: string | null }

export interface Answer {
  inResponseTo: string | null
  email: string
  attributes?: Record<string, string[]>
  /** Defaults to the request's issuer (the service provider's entity id). */
  audience: string
  acsUrl: string
  /** When the assertion was issued; its window runs five minutes from then. */
  issuedAt?: Date
  /** Sign with another key than the one the provider publishes. */
  signWith?: KeyPair
  /** Change the assertion after it was signed. */
  tamper?: (xml: string) => string
  assertionId?: string
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export class TestIdp {
  readonly entityId: string
  key: KeyPair
  /** Who the next browser sign-in at /sso is, and with which attributes. */
  nextUser: { email: string; attributes?: Record<string, string[]> } = { email: 'nobody@example.com' }
  metadataReads = 0
  private server?: http.Server
  url = ''

  /** `host`: the name its addresses use (`localhost` makes it another site than a server on 127.0.0.1, as a real provider is). */
  constructor(name = 'Test IdP', private host = '127.0.0.1') {
    this.key = makeSigningKey(name)
    this.entityId = `urn:test:idp:${randomUUID()}`
  }

  get ssoUrl() { return `${this.url}/sso` }
  get metadataUrl() { return `${this.url}/metadata` }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://idp.invalid')
      if (url.pathname === '/metadata') {
        this.metadataReads++
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(this.metadata())
      } else if (url.pathname === '/sso') {
        const request = parseAuthnRequest(`${this.url}${req.url}`)
        const response = this.response({ inResponseTo: request.id, audience: request.issuer, acsUrl: request.acsUrl, ...this.nextUser })
        // what providers do for the HTTP-POST binding: a form the page posts on load
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body onload="document.forms[0].submit()">
<form method="post" action="${esc(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${esc(response)}">
${request.relayState === null ? '' : `<input type="hidden" name="RelayState" value="${esc(request.relayState)}">`}
<noscript><button type="submit">Continue</button></noscript></form></body></html>`)
      } else res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://${this.host}:${(this.server.address() as AddressInfo).port}`
    return this
  }

  async stop() {
    await new Promise<void>((resolve) => this.server ? this.server.close(() => resolve()) : resolve())
  }

  metadata(): string {
    return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(this.entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(this.key.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${esc(this.ssoUrl)}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(this.ssoUrl)}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`
  }

  /** A signed Response, base64 as the HTTP-POST binding carries it. */
  response(a: Answer): string {
    const issued = a.issuedAt ?? new Date()
    const iso = (ms: number) => new Date(issued.getTime() + ms).toISOString()
    const assertionId = a.assertionId ?? `_a${randomUUID().replaceAll('-', '')}`
    const irt = a.inResponseTo === null ? '' : ` InResponseTo="${esc(a.inResponseTo)}"`
    const attributes = Object.entries(a.attributes ?? {}).map(([name, values]) =>
      `<saml:Attribute Name="${esc(name)}">${values.map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`).join('')
    const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID().replaceAll('-', '')}" Version="2.0" IssueInstant="${iso(0)}" Destination="${esc(a.acsUrl)}"${irt}>`
      + `<saml:Issuer>${esc(this.entityId)}</saml:Issuer>`
      + `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`
      + `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}">`
      + `<saml:Issuer>${esc(this.entityId)}</saml:Issuer>`
      + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(a.email)}</saml:NameID>`
      + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(300_000)}" Recipient="${esc(a.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>`
      + `<saml:Conditions NotBefore="${iso(-5_000)}" NotOnOrAfter="${iso(300_000)}"><saml:AudienceRestriction><saml:Audience>${esc(a.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
      + `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
      + (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '')
      + `</saml:Assertion></samlp:Response>`
    const signer = a.signWith ?? this.key
    const sig = new SignedXml({
      privateKey: signer.key, publicCert: signer.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    })
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    })
    sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } })
    const signed = a.tamper ? a.tamper(sig.getSignedXml()) : sig.getSignedXml()
    return Buffer.from(signed).toString('base64')
  }
}

/** The AuthnRequest a redirect to the provider carries (HTTP-Redirect binding: deflated, base64, in the query). */
export function parseAuthnRequest(location: string): AuthnRequest {
  const url = new URL(location)
  const encoded = url.searchParams.get('SAMLRequest')
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`)
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8')
  const doc = new DOMParser().parseFromString(xml, 'text/xml')
  const root = doc.documentElement!
  const issuer = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0]?.textContent ?? ''
  return { id: root.getAttribute('ID')!, acsUrl: root.getAttribute('AssertionConsumerServiceURL')!, issuer, relayState: url.searchParams.get('RelayState') }
}
