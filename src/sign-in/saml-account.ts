import type { Sql } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import { recordEvent } from '../events/index.ts'
import { listGroups } from '../groups/index.ts'
import { findUserByEmail, insertUser, markExternallySignedIn, replaceUserGroups } from '../users/index.ts'

/** The person an assertion vouches for. */
export interface SamlPerson {
  email: string
  name: string
  /** The group names the provider lists; undefined when the assertion has no such attribute (groups stay as they are). */
  groups?: string[]
}

const EMAIL = /^[^\s@]+@[^\s@]+$/

const values = (v: unknown): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter(Boolean)

const first = (attributes: Record<string, unknown>, ...names: string[]) => {
  for (const name of names) {
    const [value] = values(attributes[name])
    if (value) return value
  }
  return undefined
}

/**
 * Who the assertion is about: the e-mail from the NameID (as the established tool), else from an e-mail attribute;
 * the name from FirstName and LastName (the established tool's attributes), else a display name, else the e-mail.
 * Undefined when no e-mail can be found.
 */
export function personOf(nameId: string | undefined, attributes: Record<string, unknown>, groupsAttribute: string): SamlPerson | undefined {
  const fromNameId = nameId?.trim()
  const email = (fromNameId && EMAIL.test(fromNameId) ? fromNameId
    : first(attributes, 'email', 'mail', 'Email', 'urn:oid:0.9.2342.19200300.100.1.3',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'))?.toLowerCase()
  if (!email || !EMAIL.test(email) || email.length > 320) return undefined
  const full = [first(attributes, 'FirstName'), first(attributes, 'LastName')].filter(Boolean).join(' ')
  const name = (full || first(attributes, 'displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname') || email).slice(0, 320)
  const groups = groupsAttribute && groupsAttribute in attributes ? values(attributes[groupsAttribute]) : undefined
  return { email, name, groups }
}

export type AccountOutcome = { userId: number; created: boolean } | { refused: 'disabled' }

/** The user the person signs in as: matched by e-mail, else created in the default group. */
export async function samlAccount(deps: Deps, orgId: number, person: SamlPerson): Promise<AccountOutcome> {
  const existing = await findUserByEmail(deps.sql, orgId, person.email)
  if (existing) {
    if (existing.disabled_at) return { refused: 'disabled' }
    await markExternallySignedIn(deps.sql, orgId, existing.id, person.name)
    return { userId: existing.id, created: false }
  }
  const defaultGroup = (await listGroups(deps.sql, orgId)).find((g) => g.type === 'builtin' && g.name === 'default')
  if (!defaultGroup) throw new Error("The organization has no 'default' group.")
  try {
    const userId = await deps.sql.begin(async (tx) => {
      const id = await insertUser(tx, { orgId, name: person.name, email: person.email, passwordHash: null, groupIds: [defaultGroup.id] })
      await recordEvent(tx, { orgId, userId: id, action: 'create', objectType: 'user', objectId: id, properties: { method: 'saml' } })
      return id
    })
    return { userId, created: true }
  } catch (error) {
    // the same person's first two sign-ins at once: the unique index decides, and the second finds the first's user
    if ((error as { code?: string }).code !== '23505') throw error
    return samlAccount(deps, orgId, person)
  }
}

/**
 * The provider's groups replace the user's (as in the established tool): `default` always stays, names Sightline has
 * no group for are ignored (never created). Each membership added or taken away is recorded. Returns whether any
 * changed (cached rights must then be dropped).
 */
export async function syncSamlGroups(db: Sql, orgId: number, userId: number, currentIds: number[], names: string[]): Promise<boolean> {
  const groups = await listGroups(db, orgId)
  const wanted = new Set(names.map((n) => n.toLowerCase()))
  const target = groups.filter((g) => (g.type === 'builtin' && g.name === 'default') || wanted.has(g.name.toLowerCase())).map((g) => g.id)
  const added = target.filter((id) => !currentIds.includes(id))
  const removed = currentIds.filter((id) => !target.includes(id))
  if (!added.length && !removed.length) return false
  await db.begin(async (tx) => {
    await replaceUserGroups(tx, userId, target)
    for (const id of added) await recordEvent(tx, { orgId, userId, action: 'add_member', objectType: 'group', objectId: id, properties: { member_id: userId, method: 'saml' } })
    for (const id of removed) await recordEvent(tx, { orgId, userId, action: 'remove_member', objectType: 'group', objectId: id, properties: { member_id: userId, method: 'saml' } })
  })
  return true
}
