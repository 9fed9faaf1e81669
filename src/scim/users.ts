import type { Deps } from '../deps.ts'
import { recordEvent } from '../events/index.ts'
import { listGroups } from '../groups/index.ts'
import { deleteUserSessions, deleteUserTokens, insertUser, setUserDisabled, updateUserFields } from '../users/index.ts'
import { scimBoolean, scimText, userPatch, type UserChanges } from './patch.ts'
import { listResponse, paging, parseEqFilter, ScimError, userResource } from './resources.ts'
import { findScimUser, scimUsers, setUserExternalId, type ScimUserRow } from './store.ts'

/** SCIM Users (RFC 7643 §4.1) over Sightline's users: userName is the e-mail, displayName the name, active not disabled. */

const EMAIL = /^[^\s@]+@[^\s@]+$/
const via = { via: 'scim' }

export interface ScimContext { deps: Deps; orgId: number; base: string }

function userId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) throw new ScimError(404, `User ${id.slice(0, 50)} not found.`)
  return Number(id)
}

async function loadUser(s: ScimContext, id: string): Promise<ScimUserRow> {
  const user = await findScimUser(s.deps.sql, s.orgId, userId(id))
  if (!user) throw new ScimError(404, `User ${id.slice(0, 50)} not found.`)
  return user
}

export async function listScimUsers(s: ScimContext, query: Record<string, string | undefined>) {
  const filter = parseEqFilter(query.filter, ['userName', 'externalId', 'emails.value'])
  const page = paging(query)
  const by = filter?.attribute === 'externalId' ? { externalId: filter.value } : filter ? { email: filter.value.toLowerCase() } : {}
  const { total, rows } = await scimUsers(s.deps.sql, s.orgId, by, page.offset, page.limit)
  return listResponse(rows.map((u) => userResource(u, s.base)), total, page.startIndex)
}

export async function getScimUser(s: ScimContext, id: string) {
  return userResource(await loadUser(s, id), s.base)
}

const nameFrom = (c: UserChanges, fallback: string) =>
  c.displayName ?? c.formatted ?? ([c.givenName, c.familyName].filter(Boolean).join(' ') || fallback)

/** A whole user resource (POST, PUT) read into changes: every attribute Sightline keeps, the rest ignored as RFC 7644 allows. */
function resourceChanges(body: unknown): UserChanges & { email: string } {
  const b = (body ?? {}) as Record<string, unknown>
  if (typeof b !== 'object' || Array.isArray(b)) throw new ScimError(400, 'A user must be a JSON object.', 'invalidSyntax')
  const userName = scimText(b.userName, 'userName')
  const emails = Array.isArray(b.emails) ? b.emails as { value?: unknown; primary?: unknown }[] : []
  const primary = emails.find((e) => e?.primary === true || e?.primary === 'true') ?? emails[0]
  const email = (EMAIL.test(userName) ? userName : typeof primary?.value === 'string' ? primary.value.trim() : '').toLowerCase()
  if (!EMAIL.test(email) || email.length > 320) throw new ScimError(400, 'userName (or the primary e-mail) must be an e-mail address.', 'invalidValue')
  const name = (b.name ?? {}) as Record<string, unknown>
  const text = (v: unknown, what: string) => (v === undefined || v === null || v === '' ? undefined : scimText(v, what))
  return {
    email,
    displayName: text(b.displayName, 'displayName'),
    formatted: text(name.formatted, 'name.formatted'),
    givenName: text(name.givenName, 'name.givenName'),
    familyName: text(name.familyName, 'name.familyName'),
    active: b.active === undefined ? undefined : scimBoolean(b.active, 'active'),
    externalId: b.externalId === undefined || b.externalId === null ? undefined : scimText(b.externalId, 'externalId', 500),
  }
}

export async function createScimUser(s: ScimContext, body: unknown) {
  const c = resourceChanges(body)
  const defaultGroup = (await listGroups(s.deps.sql, s.orgId)).find((g) => g.type === 'builtin' && g.name === 'default')
  let id: number
  try {
    id = await s.deps.sql.begin(async (tx) => {
      const id = await insertUser(tx, { orgId: s.orgId, name: nameFrom(c, c.email), email: c.email, passwordHash: null, groupIds: defaultGroup ? [defaultGroup.id] : [] })
      if (c.externalId) await setUserExternalId(tx, id, c.externalId)
      if (c.active === false) await setUserDisabled(tx, s.orgId, id, true)
      await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'create', objectType: 'user', objectId: id, properties: via })
      return id
    })
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ScimError(409, `A user with userName ${c.email} already exists.`, 'uniqueness')
    throw error
  }
  return getScimUser(s, String(id))
}

/**
 * Apply changes to a user. Deactivating disables the user and ends their sessions and links at once; their API key
 * and any cached sign-in stop working in every web process (the cache bus), since disabled users are never
 * authenticated. The e-mail of a member of the admin group is not SCIM's to change: whoever holds the token could
 * otherwise take over an admin account by signing in with the new address.
 */
async function applyUserChanges(s: ScimContext, user: ScimUserRow, c: UserChanges) {
  const name = c.displayName ?? c.formatted ?? (c.givenName !== undefined || c.familyName !== undefined
    ? [c.givenName ?? user.name.split(/\s+/)[0], c.familyName ?? user.name.split(/\s+/).slice(1).join(' ')].filter(Boolean).join(' ')
    : undefined)
  const email = c.email?.toLowerCase()
  if (email !== undefined && email !== user.email) {
    if (!EMAIL.test(email)) throw new ScimError(400, 'userName must be an e-mail address.', 'invalidValue')
    if (user.groups.some((g) => g.name === 'admin')) throw new ScimError(403, "The e-mail of a member of the admin group cannot be changed through SCIM.")
  }
  const deactivate = c.active === false && user.disabled_at === null
  const activate = c.active === true && user.disabled_at !== null
  try {
    await s.deps.sql.begin(async (tx) => {
      const fields = { ...(name !== undefined && name !== user.name ? { name } : {}), ...(email !== undefined && email !== user.email ? { email } : {}) }
      if (Object.keys(fields).length) {
        await updateUserFields(tx, s.orgId, user.id, fields)
        await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'edit', objectType: 'user', objectId: user.id, properties: { ...via, changes: Object.keys(fields) } })
      }
      if (c.externalId !== undefined) await setUserExternalId(tx, user.id, c.externalId)
      if (deactivate) {
        await setUserDisabled(tx, s.orgId, user.id, true)
        await deleteUserSessions(tx, user.id, null)
        await deleteUserTokens(tx, user.id)
        await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'disable', objectType: 'user', objectId: user.id, properties: via })
      }
      if (activate) {
        await setUserDisabled(tx, s.orgId, user.id, false)
        await recordEvent(tx, { orgId: s.orgId, userId: null, action: 'enable', objectType: 'user', objectId: user.id, properties: via })
      }
    })
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new ScimError(409, `A user with userName ${email} already exists.`, 'uniqueness')
    throw error
  }
  await s.deps.bus.invalidate('user', user.id)
  return getScimUser(s, String(user.id))
}

export async function patchScimUser(s: ScimContext, id: string, body: unknown) {
  const user = await loadUser(s, id)
  return applyUserChanges(s, user, userPatch(body))
}

export async function replaceScimUser(s: ScimContext, id: string, body: unknown) {
  const user = await loadUser(s, id)
  return applyUserChanges(s, user, resourceChanges(body))
}

/** DELETE: Sightline keeps a user's history, so the user is deactivated rather than removed. */
export async function deleteScimUser(s: ScimContext, id: string) {
  const user = await loadUser(s, id)
  await applyUserChanges(s, user, { active: false })
}
