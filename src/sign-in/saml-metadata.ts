import { DOMParser } from '@xmldom/xmldom'
import { log } from '../log.ts'

/** What Sightline needs to know of an identity provider: who it is, where to send people, the keys it signs with. */
export interface IdpDescription {
  entityId: string | null
  ssoUrl: string
  certificates: string[]
}

export class MetadataUnavailable extends Error {}

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata'
const DS = 'http://www.w3.org/2000/09/xmldsig#'
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect'
/** Metadata is read again this often, so a provider's new signing key is taken up without anyone saving settings. */
export const METADATA_REFRESH_MS = 60 * 60 * 1000
const FETCH_TIMEOUT_MS = 10_000
const MAX_METADATA_BYTES = 1_000_000

/** xmldom's node lists are not iterable: their items as an array. */
const items = <T>(list: { length: number; item(i: number): T | null }): T[] => Array.from({ length: list.length }, (_, i) => list.item(i)!)

/** The identity provider a metadata document describes; throws MetadataUnavailable when it describes none usable. */
export function parseIdpMetadata(xml: string): IdpDescription {
  const errors: string[] = []
  const note = (message: string) => { errors.push(message) }
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: note, fatalError: note } }).parseFromString(xml, 'text/xml')
  if (errors.length || !doc?.documentElement) throw new MetadataUnavailable('The SAML metadata is not XML.')
  const idp = doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0]
  if (!idp) throw new MetadataUnavailable('The SAML metadata describes no identity provider (no IDPSSODescriptor).')
  const entity = idp.parentNode as unknown as Element | null
  const services = items(idp.getElementsByTagNameNS(MD, 'SingleSignOnService'))
  const service = services.find((s) => s.getAttribute('Binding') === REDIRECT)
  if (!service?.getAttribute('Location')) throw new MetadataUnavailable('The SAML metadata has no sign-in address for the HTTP-Redirect binding.')
  const certificates = items(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    // a key for encryption only is not one the provider signs with
    .filter((k) => k.getAttribute('use') !== 'encryption')
    .flatMap((k) => items(k.getElementsByTagNameNS(DS, 'X509Certificate')).map((c) => (c.textContent ?? '').replace(/\s+/g, '')))
    .filter(Boolean)
  if (!certificates.length) throw new MetadataUnavailable('The SAML metadata has no signing certificate.')
  return { entityId: entity?.getAttribute?.('entityID') || null, ssoUrl: service.getAttribute('Location')!, certificates }
}

async function download(url: string): Promise<string> {
  let res: Response
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' })
  } catch (error) {
    throw new MetadataUnavailable(`The SAML metadata could not be fetched: ${(error as Error).message}`)
  }
  if (!res.ok) throw new MetadataUnavailable(`The SAML metadata address answered ${res.status}.`)
  const declared = Number(res.headers.get('content-length') ?? 0)
  if (declared > MAX_METADATA_BYTES) throw new MetadataUnavailable('The SAML metadata is too large.')
  const body = await res.arrayBuffer()
  if (body.byteLength > MAX_METADATA_BYTES) throw new MetadataUnavailable('The SAML metadata is too large.')
  return new TextDecoder().decode(body)
}

interface Cached { at: number; value?: IdpDescription; pending?: Promise<IdpDescription> }
const cache = new Map<string, Cached>()

/**
 * The provider the metadata at `url` describes, read at most once an hour per process (concurrent sign-ins share one
 * download). When a refresh fails the last good description is kept, so a provider's brief outage does not stop
 * sign-ins; with none yet, throws MetadataUnavailable.
 */
export async function idpFromMetadataUrl(url: string, now = Date.now()): Promise<IdpDescription> {
  const entry = cache.get(url)
  if (entry?.value && now - entry.at < METADATA_REFRESH_MS) return entry.value
  if (entry?.pending) return entry.pending
  const pending = download(url).then(parseIdpMetadata)
  cache.set(url, { at: entry?.at ?? 0, value: entry?.value, pending })
  try {
    const value = await pending
    cache.set(url, { at: now, value })
    return value
  } catch (error) {
    if (entry?.value) {
      log.warn('SAML metadata refresh failed; the last description is kept', { url, error: (error as Error).message })
      // tried again in a minute rather than an hour: the provider is likely back soon
      cache.set(url, { at: now - METADATA_REFRESH_MS + 60_000, value: entry.value })
      return entry.value
    }
    cache.delete(url)
    throw error
  }
}

/** Forget every downloaded description (tests, and a changed setting that must be read afresh). */
export function forgetSamlMetadata(): void {
  cache.clear()
}
