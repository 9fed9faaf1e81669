import { generateServiceProviderMetadata, type Profile } from '@node-saml/node-saml'
import type { Deps } from '../deps.ts'
import { ServiceUnavailable } from '../errors.ts'
import { recordEvent } from '../events/index.ts'
import { log } from '../log.ts'
import type { OrgContext } from '../orgs/index.ts'
import { samlConfigured, publicOrigin } from '../settings/index.ts'
import { findUserById } from '../users/index.ts'
import { openSession } from '../credentials/index.ts'
import type { SignInResult } from './password.ts'
import { personOf, samlAccount, syncSamlGroups } from './saml-account.ts'
import { MetadataUnavailable } from './saml-metadata.ts'
import { claimSamlAssertion } from './saml-store.ts'
import { SamlNotConfigured, serviceProvider, spAddresses } from './saml-sp.ts'

export const samlTexts = {
  off: 'SAML sign-in is not enabled for your organization.',
  noOrigin: "SAML sign-in needs Sightline's public address: an admin sets it in the General settings (or SIGHTLINE_BASE_URL).",
  providerUnavailable: 'The SAML identity provider cannot be reached right now. Please try again later.',
  refused: 'SAML sign-in failed: the identity provider\'s answer could not be accepted. Please try again.',
  noEmail: 'SAML sign-in failed: the identity provider did not say which e-mail address you sign in with.',
  disabled: 'Your account is disabled. Ask an admin to enable it.',
}

/** A refused sign-in and why (the reason goes to the audit log, the message to the person). */
export class SamlRefused extends Error {
  constructor(message: string, readonly reason: string) {
    super(message)
  }
}

async function originFor(deps: Deps, org: OrgContext): Promise<string> {
  if (!samlConfigured(org.settings)) throw new SamlRefused(samlTexts.off, 'disabled')
  const origin = await publicOrigin(deps, org.id)
  if (!origin) throw new SamlRefused(samlTexts.noOrigin, 'no_public_origin')
  return origin
}

async function providerFor(deps: Deps, org: OrgContext, origin: string) {
  try {
    return await serviceProvider(deps.sql, org.id, origin, org.settings)
  } catch (error) {
    if (error instanceof MetadataUnavailable) {
      log.warn('SAML metadata unavailable', { error: error.message })
      throw new ServiceUnavailable(samlTexts.providerUnavailable, 30)
    }
    if (error instanceof SamlNotConfigured) throw new SamlRefused(samlTexts.off, 'not_configured')
    throw error
  }
}

/** Where to send the browser to sign in at the provider (SP-initiated); `next` comes back as RelayState. */
export async function startSamlSignIn(deps: Deps, org: OrgContext, next: string): Promise<string> {
  const origin = await originFor(deps, org)
  const sp = await providerFor(deps, org, origin)
  return sp.getAuthorizeUrlAsync(next, undefined, {})
}

/** The service provider's metadata, for the admin to give the identity provider. */
export async function samlMetadataXml(deps: Deps, org: OrgContext): Promise<string> {
  const origin = await publicOrigin(deps, org.id)
  if (!origin) throw new SamlRefused(samlTexts.noOrigin, 'no_public_origin')
  const sp = spAddresses(origin, org.settings)
  return generateServiceProviderMetadata({
    issuer: sp.entityId, callbackUrl: sp.acsUrl, wantAssertionsSigned: true,
    identifierFormat: org.settings.auth_saml_nameid_format.trim() || 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  })
}

/** The assertion's id and when it stops being valid (its conditions' end, else a day: it is kept that long as used). */
function assertionIdentity(profile: Profile): { id: string | undefined; expiresAt: Date } {
  const assertion = profile.getAssertion?.() as { Assertion?: { $?: { ID?: string }; Conditions?: { $?: { NotOnOrAfter?: string } }[] } } | undefined
  const end = assertion?.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter
  const endMs = end ? Date.parse(end) : NaN
  const dayMs = Date.now() + 24 * 3600_000
  return { id: assertion?.Assertion?.$?.ID, expiresAt: new Date(Number.isNaN(endMs) ? dayMs : Math.min(Math.max(endMs, Date.now() + 3600_000), dayMs * 7)) }
}

type Meta = { userAgent?: string; ip?: string }

/**
 * Take the provider's answer posted to the assertion consumer: checked (signature, audience, time window, the
 * request it answers, never used before), then the person signed in as their user (created on first sign-in) with
 * their groups from the groups attribute. Every outcome is recorded in the audit log.
 */
export async function finishSamlSignIn(deps: Deps, org: OrgContext, form: Record<string, unknown>, meta: Meta): Promise<SignInResult> {
  const failed = async (reason: string, message: string, detail?: string): Promise<SignInResult> => {
    await recordEvent(deps.sql, { orgId: org.id, userId: null, action: 'login_failed', objectType: 'redash', objectId: null,
      properties: { method: 'saml', reason, ...(detail ? { detail: detail.slice(0, 300) } : {}), user_agent: meta.userAgent, ip: meta.ip } })
    return { ok: false, message }
  }
  let origin: string
  try {
    origin = await originFor(deps, org)
  } catch (error) {
    if (error instanceof SamlRefused) return failed(error.reason, error.message)
    throw error
  }
  const response = form.SAMLResponse
  if (typeof response !== 'string' || !response) return failed('no_response', samlTexts.refused)
  let sp
  try {
    sp = await providerFor(deps, org, origin)
  } catch (error) {
    if (error instanceof SamlRefused) return failed(error.reason, error.message)
    throw error
  }
  let profile: Profile | null
  try {
    ;({ profile } = await sp.validatePostResponseAsync({ SAMLResponse: response }))
  } catch (error) {
    // the library's reason (bad signature, wrong audience, expired, unknown request) is for the log, not the person
    return failed('invalid_response', samlTexts.refused, (error as Error).message)
  }
  if (!profile) return failed('invalid_response', samlTexts.refused, 'no assertion')
  // node-saml checks the issuer of logout messages only; an assertion must come from the provider the metadata names
  const expectedIssuer = sp.options.idpIssuer
  if (expectedIssuer && profile.issuer !== expectedIssuer) return failed('invalid_response', samlTexts.refused, `issuer ${profile.issuer}`)
  const assertion = assertionIdentity(profile)
  if (!assertion.id) return failed('invalid_response', samlTexts.refused, 'assertion without an id')
  if (!(await claimSamlAssertion(deps.sql, org.id, assertion.id, assertion.expiresAt))) {
    return failed('replay', samlTexts.refused, 'assertion already used')
  }
  const person = personOf(profile.nameID, (profile.attributes ?? {}) as Record<string, unknown>, org.settings.auth_saml_groups_attribute)
  if (!person) return failed('no_email', samlTexts.noEmail)
  const account = await samlAccount(deps, org.id, person)
  if ('refused' in account) return failed('disabled', samlTexts.disabled, person.email)
  if (person.groups) {
    const user = await findUserById(deps.sql, org.id, account.userId)
    if (user && await syncSamlGroups(deps.sql, org.id, account.userId, user.group_ids, person.groups)) {
      await deps.bus.invalidate('user', account.userId)
    }
  }
  const token = await openSession(deps, account.userId, true, meta)
  await recordEvent(deps.sql, { orgId: org.id, userId: account.userId, action: 'login', objectType: 'redash', objectId: null,
    properties: { method: 'saml', user_agent: meta.userAgent, ip: meta.ip } })
  return { ok: true, token, remember: true, userId: account.userId }
}
