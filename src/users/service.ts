import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { apiListQuery, LIMITS, objectBody, tooLong } from '../validation/index.ts'
import { findGroupsByIds, listGroups, type GroupRow } from '../groups/index.ts'
import { requireRight, userPolicy, userRefusals } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { checkCurrentPassword, hashPassword, MIN_PASSWORD_LENGTH, generateApiKey, revealApiKey, storedApiKey } from '../credentials/index.ts'
import { isPastEnd, type ListOrder, type ListQuery } from '../shared/list/params.ts'
import { listTexts } from '../shared/list/texts.ts'
import { isIanaTimeZone } from '../shared/time-zone.ts'
import { deleteUserSessions, findUserByEmail, findUserById, listUsers, replaceApiKey, replaceUserGroups, updateUserFields, USER_ORDERS, type UserOrder, type UserRow } from './store.ts'
import { userJson } from './serialize.ts'
import { emailAddressChanged } from './verify-email.ts'

export { USER_ORDERS, type UserOrder }

/** Spec 3 §9: the users list is newest first unless told otherwise. */
export const USER_DEFAULT_ORDER: ListOrder<UserOrder> = { column: 'created_at', descending: true }

export const userTexts = {
  mustProvideOldPassword: 'Must provide current password to update password.',
  incorrectOldPassword: 'Incorrect current password.',
  mustBeAdminForGroups: userRefusals.mustBeAdminForGroups,
  invalidGroup: (id: number) => `Group id ${id} is invalid.`,
  emailTaken: 'Email already taken.',
  passwordTooShort: `Password length is too short (<${MIN_PASSWORD_LENGTH}).`,
  disabledReadOnly: userRefusals.disabledReadOnly,
  cannotChangeOwnGroups: 'You cannot change your own groups. Please ask another admin to do this for you.',
  onlyAdminsSeeDisabled: userRefusals.onlyAdminsSeeDisabled,
}

/** Who may see the users list and other people's profiles: list_users, or an admin. */
export const canListUsers = (principal: Principal): boolean => userPolicy(principal).list === true

/** One user as the caller may see them: themself, or anyone when they may list users; the key only for self/admin. */
export async function getUser(deps: Deps, principal: Principal, id: number) {
  const user = await findUserById(deps.sql, principal.orgId, id)
  if (!user) throw new NotFound()
  const rights = userPolicy(principal, user)
  requireRight(rights.view)
  const groups = await findGroupsByIds(deps.sql, principal.orgId, user.group_ids)
  const withApiKey = rights.holdApiKey === true
  // the key is opened only for those who may see it
  const apiKey = withApiKey ? revealApiKey(deps.secretKey, user.api_key_sealed) : null
  // one user's page and profile form carry their own time zone (lists keep the established tool's fields)
  return { ...userJson({ ...user, api_key: apiKey }, { withApiKey, groups }), time_zone: user.time_zone }
}

/** A user as lists show them; one user read alone (`getUser`) adds their time zone. */
export type UserJson = ReturnType<typeof userJson>

/** A new key for the user; the old one stops working at once, in every process. */
export async function regenerateUserApiKey(deps: Deps, principal: Principal, id: number) {
  const user = await findUserById(deps.sql, principal.orgId, id)
  if (!user || user.disabled_at) throw new NotFound()
  requireRight(userPolicy(principal, user).edit)
  const apiKey = generateApiKey()
  await audited(deps.sql, principal, { action: 'regenerate_api_key', objectType: 'user', objectId: id }, (tx) =>
    replaceApiKey(tx, principal.orgId, id, storedApiKey(deps.secretKey, apiKey)))
  // evicts the user's cached principals here at once (the old key's among them) and in every other process
  await deps.bus.invalidate('user', id)
  return apiKey
}

export interface UserListQuery {
  list: ListQuery<UserOrder>
  disabled: boolean
  /** Only pending invitations (true), only accepted ones (false), or both (undefined). */
  pending?: boolean
}

const flag = (value: string | undefined) => (value === undefined || value === '' ? undefined : value.toLowerCase() === 'true')

/** The query string of GET /api/users (reference §1.6, §3.3), checked: a 400 names what is wrong. */
export function parseUserListQuery(query: Record<string, string | undefined>): UserListQuery {
  return { list: apiListQuery(query, USER_ORDERS), disabled: flag(query.disabled) ?? false, pending: flag(query.pending) }
}

/**
 * A page of users (spec 3 §2 "Users and profile"): for list_users holders; disabled users for admins only. A page
 * past the end is refused, as the API does, or with `clampPage` (a page's address) shows the last page.
 */
export async function listUsersPage(deps: Deps, principal: Principal, query: UserListQuery, o: { clampPage?: boolean } = {}) {
  const rights = userPolicy(principal)
  requireRight(query.disabled ? rights.listDisabled : rights.list)
  const { list } = query
  const filter = {
    orgId: principal.orgId, q: list.q || undefined, disabled: query.disabled, pending: query.pending, order: list.order ?? USER_DEFAULT_ORDER,
  }
  const { count, page, rows } = await listUsers(deps.sql, filter, list, { pastEnd: o.clampPage ? 'last' : 'empty' })
  if (isPastEnd(count, page, list.pageSize)) throw new BadRequest(listTexts.pageOutOfRange)
  const groups = new Map((await listGroups(deps.sql, principal.orgId)).map((g) => [g.id, g]))
  return {
    count,
    page,
    page_size: list.pageSize,
    results: rows.map((row) => userJson(row, { withApiKey: false, groups: groupsOf(row, groups) })),
  }
}

const groupsOf = (row: UserRow, groups: Map<number, GroupRow>) =>
  row.group_ids.map((id) => groups.get(id)).filter((g): g is GroupRow => !!g)

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const required = (label: string) => `${label}: This field is required.`

const GROUP_IDS = 'group_ids must be a list of group ids.'
const TIME_ZONE = 'Time zone: This field must be a time zone name such as UTC or Europe/Paris.'
const UpdateBody = z.object({
  name: z.string({ error: 'name must be text.' }).trim().min(1, required('Name')).max(LIMITS.userName, `Name: ${tooLong('This field', LIMITS.userName)}`).optional(),
  email: z.string({ error: 'email must be text.' }).trim().toLowerCase().min(1, required('Email')).max(320, 'Email: This field is too long.')
    .regex(EMAIL, 'Email: This field must be a valid email.').optional(),
  password: z.string({ error: 'password must be text.' }).max(1000, 'Password: This field is too long.').optional(),
  old_password: z.string({ error: 'old_password must be text.' }).max(1000, 'old_password is too long.').optional(),
  group_ids: z.array(z.coerce.number({ error: GROUP_IDS }).int(GROUP_IDS).positive(GROUP_IDS), { error: GROUP_IDS }).max(1000, GROUP_IDS).optional(),
  // '' or null: none of their own (the organization's clock)
  time_zone: z.union([z.string(), z.null()], { error: TIME_ZONE }).transform((v) => v || null)
    .refine((v) => v === null || isIanaTimeZone(v), TIME_ZONE).optional(),
})

/** The body of a profile save, or a 400 whose message names the field itself (as the form shows it). */
function updateInput(body: unknown): z.infer<typeof UpdateBody> {
  objectBody(body)
  const result = UpdateBody.safeParse(body)
  if (!result.success) throw new BadRequest(result.error.issues[0].message)
  return result.data
}

/**
 * Save a profile (reference §1.6 `POST /api/users/<id>`): the user themself or an admin; groups by admins only;
 * a new password needs the current one. A new password or email signs the user out everywhere but here; a new email
 * is verified anew by a link mailed to it (when mail is configured), made on the public origin.
 */
export async function updateUser(deps: Deps, principal: Principal, id: number, body: unknown) {
  const user = await findUserById(deps.sql, principal.orgId, id)
  if (!user) throw new NotFound()
  const rights = userPolicy(principal, user)
  requireRight(rights.edit)
  const input = updateInput(body)
  const self = principal.id === id

  let passwordHash: string | undefined
  if (input.password !== undefined) {
    if (!input.old_password) throw new Forbidden(userTexts.mustProvideOldPassword)
    if (input.password.length < MIN_PASSWORD_LENGTH) throw new BadRequest(userTexts.passwordTooShort)
  }

  let groupIds: number[] | undefined
  if (input.group_ids !== undefined) {
    requireRight(rights.changeGroups)
    const wanted = [...new Set(input.group_ids)]
    if (wanted.length) { // an empty list is ignored, as in the established tool
      const found = await findGroupsByIds(deps.sql, principal.orgId, wanted)
      const missing = wanted.find((gid) => !found.some((g) => g.id === gid))
      if (missing !== undefined) throw new BadRequest(userTexts.invalidGroup(missing))
      const same = wanted.length === user.group_ids.length && wanted.every((gid) => user.group_ids.includes(gid))
      // spec 3 §6: groups are read-only on one's own profile (an admin cannot grant or drop their own rights)
      if (!same && self) throw new Forbidden(userTexts.cannotChangeOwnGroups)
      if (!same) groupIds = wanted.sort((a, b) => a - b)
    }
  }

  const name = input.name !== undefined && input.name !== user.name ? input.name : undefined
  const email = input.email !== undefined && input.email !== user.email.toLowerCase() ? input.email : undefined
  if (email !== undefined) {
    const other = await findUserByEmail(deps.sql, principal.orgId, email)
    if (other && other.id !== id) throw new BadRequest(userTexts.emailTaken)
  }

  if (input.password !== undefined) {
    if (!(await checkCurrentPassword(deps, user, input.old_password!))) throw new Forbidden(userTexts.incorrectOldPassword)
    passwordHash = await hashPassword(input.password)
  }

  const timeZone = input.time_zone !== undefined && input.time_zone !== user.time_zone ? input.time_zone : undefined
  const changed = [
    ...(name !== undefined ? ['name'] : []), ...(email !== undefined ? ['email'] : []), ...(timeZone !== undefined ? ['time_zone'] : []),
    ...(passwordHash !== undefined ? ['password'] : []), ...(groupIds !== undefined ? ['group_ids'] : []),
  ]
  if (changed.length) {
    // a new password or email ends every other session of the user; the caller's own stays when it is theirs
    const signOutElsewhere = passwordHash !== undefined || email !== undefined
    const keep = self && principal.via === 'session' && principal.sessionHash ? Buffer.from(principal.sessionHash, 'hex') : null
    try {
      await audited(deps.sql, principal, { action: 'edit', objectType: 'user', objectId: id, properties: { updated_fields: changed } }, async (tx) => {
        await updateUserFields(tx, principal.orgId, id, { name, email, passwordHash, timeZone })
        if (groupIds !== undefined) await replaceUserGroups(tx, id, groupIds)
        if (email !== undefined) await emailAddressChanged(tx, deps, principal.orgId, { id, name: name ?? user.name, email })
        if (signOutElsewhere) await deleteUserSessions(tx, id, keep)
      })
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new BadRequest(userTexts.emailTaken)
      throw error
    }
    await deps.bus.invalidate('user', id)
  }
  return getUser(deps, principal, id)
}
