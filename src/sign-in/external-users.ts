import type { Deps } from '../deps.ts'
import { recordEvent } from '../events/index.ts'
import { addGroupMember, listGroups, removeGroupMember } from '../groups/index.ts'
import { findUserByEmail, findUserById, insertUser, markExternallySignedIn } from '../users/index.ts'
import { findIdentityUser, groupIdsByName, insertIdentity } from './store.ts'

/** Someone an identity provider vouched for, in the provider's words. */
export interface ExternalPerson {
  /** Who vouches (the issuer), and its stable name for the person. */
  provider: string
  subject: string
  email?: string
  /** Only true when the provider said so (`email_verified`): an unverified address never takes over an account. */
  emailVerified: boolean
  name?: string
}

export interface GroupSync {
  /** The groups claim's values; undefined when the provider sent no such claim (then nothing changes). */
  values: string[] | undefined
  /** Claim value → Sightline group name. */
  mappings: Record<string, string>
}

export type Refusal = 'missing_email' | 'email_not_verified' | 'disabled' | 'domain_not_allowed' | 'not_provisioned'

export type ExternalUser =
  | { ok: true; userId: number; created: boolean; added: string[]; removed: string[] }
  | { ok: false; reason: Refusal }

const EMAIL = /^[^\s@]{1,200}@[^\s@]{1,120}$/

/** A provider's e-mail claim, normalized; undefined when there is none or it is not an address. */
export function emailOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const email = value.trim().toLowerCase()
  return EMAIL.test(email) ? email : undefined
}

/**
 * The Sightline user a provider's person signs in as: the one that signed in with the same provider subject before;
 * else the user with their e-mail, only when the provider verified it (then the subject is linked); else a new user
 * in the default group, when `mayCreate` allows (Google's domain rule). Disabled users are refused. The mapped groups
 * are then synced (added and removed, only those the mappings name; nothing when the claim is missing).
 */
export async function externalUser(
  deps: Deps, orgId: number, method: string, person: ExternalPerson,
  o: { mayCreate?: (email: string) => boolean; groups?: GroupSync } = {},
): Promise<ExternalUser> {
  let userId = await findIdentityUser(deps.sql, person.provider, person.subject)
  let created = false
  if (userId === undefined) {
    if (!person.email) return { ok: false, reason: 'missing_email' }
    const existing = await findUserByEmail(deps.sql, orgId, person.email)
    if (existing) {
      if (!person.emailVerified) return { ok: false, reason: 'email_not_verified' }
      if (existing.disabled_at) return { ok: false, reason: 'disabled' }
      await insertIdentity(deps.sql, person.provider, person.subject, existing.id)
      userId = existing.id
    } else {
      if (o.mayCreate && !o.mayCreate(person.email)) return { ok: false, reason: 'domain_not_allowed' }
      const made = await createUser(deps, orgId, method, person)
      if (made === undefined) return externalUser(deps, orgId, method, person, o)
      userId = made
      created = true
    }
  }
  const user = await findUserById(deps.sql, orgId, userId)
  if (!user) return { ok: false, reason: 'not_provisioned' }
  if (user.disabled_at) return { ok: false, reason: 'disabled' }
  await markExternallySignedIn(deps.sql, orgId, userId, person.name?.trim().slice(0, 200) || user.name)
  const { added, removed } = o.groups ? await syncGroups(deps, orgId, userId, user.group_ids, method, o.groups) : { added: [], removed: [] }
  return { ok: true, userId, created, added, removed }
}

/** A new user in the default group, linked to the provider's subject; undefined when someone else created it first. */
async function createUser(deps: Deps, orgId: number, method: string, person: ExternalPerson): Promise<number | undefined> {
  const defaultGroup = (await listGroups(deps.sql, orgId)).find((g) => g.type === 'builtin' && g.name === 'default')
  if (!defaultGroup) throw new Error("The organization has no 'default' group.")
  const email = person.email!
  try {
    return await deps.sql.begin(async (tx) => {
      const id = await insertUser(tx, { orgId, name: person.name?.trim().slice(0, 200) || email.split('@')[0], email, passwordHash: null, groupIds: [defaultGroup.id] })
      await insertIdentity(tx, person.provider, person.subject, id)
      await recordEvent(tx, { orgId, userId: id, action: 'create', objectType: 'user', objectId: id, properties: { method } })
      return id
    })
  } catch (error) {
    // the same person's first two sign-ins at once: the unique indexes decide, and the second finds the first's user
    if ((error as { code?: string }).code !== '23505') throw error
    return undefined
  }
}

/** The claim's values as strings: an array of strings, or a single string. Undefined when the claim is absent. */
export function claimValues(claim: unknown): string[] | undefined {
  if (claim === undefined || claim === null) return undefined
  if (typeof claim === 'string') return [claim]
  if (Array.isArray(claim)) return claim.filter((v): v is string => typeof v === 'string')
  return []
}

/**
 * Make the user's membership of the mapped groups match the claim: a mapped group whose claim value is present is
 * joined, one whose value is absent is left; groups no mapping names are never touched, and names that are not
 * Sightline groups are ignored (never created). Recorded in the audit log when anything changed.
 */
async function syncGroups(deps: Deps, orgId: number, userId: number, current: number[], method: string, sync: GroupSync) {
  if (sync.values === undefined) return { added: [], removed: [] }
  const mapped = [...new Set(Object.values(sync.mappings))]
  const wanted = new Set(sync.values.flatMap((v) => (Object.hasOwn(sync.mappings, v) ? [sync.mappings[v]] : [])))
  const ids = await groupIdsByName(deps.sql, orgId, mapped)
  const member = new Set(current)
  const added: string[] = []
  const removed: string[] = []
  await deps.sql.begin(async (tx) => {
    for (const [name, id] of ids) {
      if (wanted.has(name) && !member.has(id) && await addGroupMember(tx, id, userId)) added.push(name)
      if (!wanted.has(name) && member.has(id) && await removeGroupMember(tx, id, userId)) removed.push(name)
    }
    if (added.length || removed.length) {
      await recordEvent(tx, { orgId, userId, action: 'sync_groups', objectType: 'user', objectId: userId, properties: { method, added, removed } })
    }
  })
  // the user's other sessions and keys see their new groups at once, on every web process
  if (added.length || removed.length) await deps.bus.invalidate('user', userId)
  return { added, removed }
}
