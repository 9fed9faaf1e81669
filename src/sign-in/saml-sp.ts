import { SAML, ValidateInResponseTo, type CacheProvider, type SamlConfig } from '@node-saml/node-saml'
import type { Db } from '../db/index.ts'
import type { OrgSettings } from '../settings/index.ts'
import { idpFromMetadataUrl } from './saml-metadata.ts'
import { deleteSamlRequest, findSamlRequest, pruneSamlState, saveSamlRequest } from './saml-store.ts'

/** How long a person may take at the provider (a password, a second factor) before their request is void. */
export const SAML_REQUEST_TTL_MS = 60 * 60 * 1000
/** Clocks of Sightline and the provider may disagree this much on an assertion's time window. */
export const SAML_CLOCK_SKEW_MS = 30_000
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'

/** Sightline's own addresses as a provider sees them: all from the public origin, never from a request. */
export function spAddresses(origin: string, settings: OrgSettings) {
  const metadataUrl = `${origin}/saml/metadata`
  return {
    acsUrl: `${origin}/saml/callback`,
    metadataUrl,
    // the entity id an admin registered with the provider, else the metadata address (a common convention)
    entityId: settings.auth_saml_entity_id.trim() || metadataUrl,
  }
}

/** A certificate as pasted (PEM, or its base64 alone, with any line breaks) in the PEM form the verifier expects. */
export function pemCertificate(text: string): string {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '')
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`
}

/**
 * node-saml's record of requests sent, kept in the database: the process that takes the answer need not be the
 * one that sent the request, and a request answered once is gone for every process.
 */
function requestCache(db: Db, orgId: number): CacheProvider {
  return {
    async saveAsync(key, value) {
      const at = new Date(value)
      await pruneSamlState(db, new Date(at.getTime() - SAML_REQUEST_TTL_MS))
      await saveSamlRequest(db, orgId, key, at)
      return { value, createdAt: at.getTime() }
    },
    async getAsync(key) {
      const at = await findSamlRequest(db, key)
      return at && Date.now() - at.getTime() < SAML_REQUEST_TTL_MS ? at.toISOString() : null
    },
    async removeAsync(key) {
      if (key === null) return null
      return (await deleteSamlRequest(db, key)) ? key : null
    },
  }
}

export class SamlNotConfigured extends Error {}

/**
 * The service provider for the organization's current settings. Static settings name the provider's sign-in address
 * and certificate; dynamic ones its metadata address (fetched, then refreshed hourly). Assertions must be signed,
 * answer a request this installation sent (InResponseTo), be meant for this installation (audience) and be within
 * their time window.
 */
export async function serviceProvider(db: Db, orgId: number, origin: string, settings: OrgSettings): Promise<SAML> {
  const sp = spAddresses(origin, settings)
  let ssoUrl: string
  let certificates: string[]
  let idpIssuer: string | undefined
  if (settings.auth_saml_type === 'dynamic') {
    const idp = await idpFromMetadataUrl(settings.auth_saml_metadata_url.trim())
    ssoUrl = idp.ssoUrl
    certificates = idp.certificates
    idpIssuer = idp.entityId ?? undefined
  } else {
    ssoUrl = settings.auth_saml_sso_url.trim()
    certificates = [settings.auth_saml_x509_cert]
  }
  if (!ssoUrl || !certificates.length || !certificates[0].trim()) throw new SamlNotConfigured('SAML is not configured.')
  const config: SamlConfig = {
    callbackUrl: sp.acsUrl,
    issuer: sp.entityId,
    audience: sp.entityId,
    entryPoint: ssoUrl,
    idpCert: certificates.map(pemCertificate),
    idpIssuer,
    identifierFormat: settings.auth_saml_nameid_format.trim() || EMAIL_FORMAT,
    // the assertion is what is trusted, so it must carry the signature itself (a signed envelope alone is not enough)
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    // no particular authentication context asked for: providers refuse a request for passwords when they used a second factor
    disableRequestedAuthnContext: true,
    cacheProvider: requestCache(db, orgId),
  }
  return new SAML(config)
}
