import { Client, Filter, InvalidCredentialsError, SizeLimitExceededError, type Entry } from 'ldapts'
import type { LdapSettings } from '../config.ts'

/** The person the directory vouches for: the name and e-mail Sightline signs them in as. */
export interface DirectoryPerson {
  name: string
  email: string
}

/** The directory could not be asked (down, refused the service account, answered garbage): nobody's fault but its own. */
export class DirectoryUnavailable extends Error {}

const TIMEOUT_MS = 5_000

/** The search filter for a user name, the name escaped (RFC 4515) so that it can only ever be a value, never filter syntax. */
export function searchFilter(template: string, username: string): string {
  return template.replaceAll('%(username)s', Filter.escape(username))
}

/**
 * Check a user name and password against the directory as the established tool does: bind as the service account,
 * search for exactly one entry, then bind as that entry with the password. Undefined when the credentials are wrong
 * or the entry lacks an e-mail; DirectoryUnavailable when the directory cannot answer.
 */
export async function checkDirectoryCredentials(settings: LdapSettings, username: string, password: string): Promise<DirectoryPerson | undefined> {
  // an empty password is an "unauthenticated bind" (RFC 4513 §5.1.2), which many directories accept for any DN
  if (!username || !password) return undefined
  const client = new Client({ url: connectionUrl(settings), timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS })
  try {
    if (settings.startTls) await unavailableOnError(() => client.startTLS())
    if (settings.bindDn) await unavailableOnError(() => client.bind(settings.bindDn!, settings.bindPassword ?? ''))
    let searchEntries: Entry[]
    try {
      ({ searchEntries } = await client.search(settings.searchDn, {
        scope: 'sub', filter: searchFilter(settings.searchTemplate, username), attributes: [settings.displayNameKey, settings.emailKey],
        sizeLimit: 2,
      }))
    } catch (error) {
      if (error instanceof SizeLimitExceededError) return undefined
      throw new DirectoryUnavailable(String(error))
    }
    // none, or several: a name that matches more than one person signs in as nobody
    if (searchEntries.length !== 1) return undefined
    const entry = searchEntries[0]
    try {
      await client.bind(entry.dn, password)
    } catch (error) {
      if (error instanceof InvalidCredentialsError) return undefined
      throw new DirectoryUnavailable(String(error))
    }
    const email = firstValue(entry[settings.emailKey])?.trim().toLowerCase()
    if (!email) return undefined
    return { email, name: firstValue(entry[settings.displayNameKey])?.trim() || email.split('@')[0] }
  } finally {
    await client.unbind().catch(() => {})
  }
}

function connectionUrl(settings: LdapSettings): string {
  return settings.useSsl ? settings.url.replace(/^ldap:/i, 'ldaps:') : settings.url
}

async function unavailableOnError<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    throw new DirectoryUnavailable(String(error))
  }
}

function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value
  if (typeof first === 'string') return first
  if (Buffer.isBuffer(first)) return first.toString('utf8')
  return undefined
}
