import { z } from 'zod'
import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { listGroups } from '../groups/index.ts'
import { invitationMail, queueMail, passwordResetMail } from '../mail/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { LIMITS, objectBody, tooLong } from '../validation/index.ts'
import { linkDelivery } from './link-delivery.ts'
import { issueUserLink } from './links.ts'
import { requireAccountMailBudget } from './mail-budget.ts'
import { getUser, userTexts } from './service.ts'
import { deleteUserRow, deleteUserSessions, deleteUserTokens, findUserByEmail, findUserById, insertPendingUser, setUserDisabled, type UserRow } from './store.ts'

/**
 * What admins do to other people's accounts (spec 3 §4 "User lifecycle", reference §1.6): invite a new user, disable
 * and enable, delete a pending invitation, resend an invitation, give a password-reset link. With a mail server
 * configured the link goes by mail (queued with the link, sent by the worker) and never into the answer, as the
 * established tool does; without one, or while Sightline does not know its public address, the answer carries the
 * link for the admin to pass on.
 */

export const adminTexts = {
  badEmail: 'Bad email address.',
  cannotDisableSelf: 'You cannot disable your own account. Please ask another admin to do this for you.',
  cannotDeleteSelf: 'You cannot delete your own account. Please ask another admin to do this for you.',
  cannotDeleteActive: 'You cannot delete activated users. Please disable the user instead.',
  ownsObjects: 'This user has made queries or other objects. Please disable the user instead.',
  alreadyAccepted: 'This user has already accepted the invitation. Send a password reset link instead.',
  noDefaultGroup: "The organization has no 'default' group.",
}

const required = (label: string) => `${label}: This field is required.`
const CreateBody = z.object({
  name: z.string({ error: (i) => (i.input === undefined ? required('Name') : 'name must be text.') }).trim()
    .min(1, required('Name')).max(LIMITS.userName, `Name: ${tooLong('This field', LIMITS.userName)}`),
  email: z.string({ error: (i) => (i.input === undefined ? required('Email') : 'email must be text.') }).trim().toLowerCase()
    .min(1, required('Email')).max(320, 'Email: This field is too long.').regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, adminTexts.badEmail),
})

function createInput(body: unknown): z.infer<typeof CreateBody> {
  objectBody(body)
  const result = CreateBody.safeParse(body)
  if (!result.success) throw new BadRequest(result.error.issues[0].message)
  return result.data
}

/**
 * Invite someone (reference §1.6 `POST /api/users`): a pending user in the `default` group, with no password and no
 * API key until they accept; the answer is the user, with the invitation link when it is not mailed.
 */
export async function createUser(deps: Deps, principal: Principal | undefined, body: unknown) {
  const admin = requireAdmin(principal)
  const input = createInput(body)
  // the column is case-insensitive, so this finds the address whatever its case
  if (await findUserByEmail(deps.sql, admin.orgId, input.email)) throw new BadRequest(userTexts.emailTaken)
  const defaultGroup = (await listGroups(deps.sql, admin.orgId)).find((g) => g.type === 'builtin' && g.name === 'default')
  if (!defaultGroup) throw new BadRequest(adminTexts.noDefaultGroup)
  const links = await linkDelivery(deps, admin.orgId)
  if (links.mailed) await requireAccountMailBudget(deps, admin.orgId)
  let id = 0
  let inviteLink = ''
  try {
    id = await audited(deps.sql, admin, (created) => ({ action: 'create', objectType: 'user', objectId: created }), async (tx) => {
      const created = await insertPendingUser(tx, { orgId: admin.orgId, name: input.name, email: input.email, groupIds: [defaultGroup.id] })
      inviteLink = await issueUserLink(tx, deps, { userId: created, purpose: 'invite', base: links.base })
      if (links.mailed) await queueMail(tx, invitationMail({ to: input.email, name: input.name, inviterName: admin.name, link: inviteLink }))
      return created
    })
  } catch (error) {
    // two invitations of the same address at once: the unique index decides
    if ((error as { code?: string }).code === '23505') throw new BadRequest(userTexts.emailTaken)
    throw error
  }
  const user = await getUser(deps, admin, id)
  return links.mailed ? user : { ...user, invite_link: inviteLink }
}

async function targetOf(deps: Deps, admin: Principal, id: number): Promise<UserRow> {
  const user = await findUserById(deps.sql, admin.orgId, id)
  if (!user) throw new NotFound()
  return user
}

/**
 * Disable a user (`POST /api/users/<id>/disable`): their sessions end and their cached sign-ins are dropped in every
 * process at once, and their unused links stop working. An admin cannot disable themself.
 */
export async function disableUser(deps: Deps, principal: Principal | undefined, id: number) {
  const admin = requireAdmin(principal)
  await targetOf(deps, admin, id)
  if (admin.id === id) throw new Forbidden(adminTexts.cannotDisableSelf)
  await audited(deps.sql, admin, { action: 'disable', objectType: 'user', objectId: id }, async (tx) => {
    await setUserDisabled(tx, admin.orgId, id, true)
    await deleteUserSessions(tx, id, null)
    await deleteUserTokens(tx, id)
  })
  await deps.bus.invalidate('user', id)
  return getUser(deps, admin, id)
}

/** Enable a disabled user again (`DELETE /api/users/<id>/disable`); they sign in anew. */
export async function enableUser(deps: Deps, principal: Principal | undefined, id: number) {
  const admin = requireAdmin(principal)
  await targetOf(deps, admin, id)
  await audited(deps.sql, admin, { action: 'enable', objectType: 'user', objectId: id }, (tx) => setUserDisabled(tx, admin.orgId, id, false))
  await deps.bus.invalidate('user', id)
  return getUser(deps, admin, id)
}

/** Delete a pending invitation (`DELETE /api/users/<id>`); people who have accepted are disabled instead. */
export async function deleteUser(deps: Deps, principal: Principal | undefined, id: number) {
  const admin = requireAdmin(principal)
  const user = await targetOf(deps, admin, id)
  if (admin.id === id) throw new Forbidden(adminTexts.cannotDeleteSelf)
  if (!user.is_invitation_pending) throw new Forbidden(adminTexts.cannotDeleteActive)
  try {
    await audited(deps.sql, admin, { action: 'delete', objectType: 'user', objectId: id }, (tx) => deleteUserRow(tx, admin.orgId, id))
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw new Forbidden(adminTexts.ownsObjects)
    throw error
  }
  await deps.bus.invalidate('user', id)
}

/**
 * A new invitation link for a pending user (`POST /api/users/<id>/invite`); the previous one stops working. Mailed when
 * mail is configured and Sightline knows its address (the answer is then empty), else returned.
 */
export async function reinviteUser(deps: Deps, principal: Principal | undefined, id: number) {
  const admin = requireAdmin(principal)
  const user = await targetOf(deps, admin, id)
  if (user.disabled_at) throw new NotFound()
  if (!user.is_invitation_pending) throw new BadRequest(adminTexts.alreadyAccepted)
  const links = await linkDelivery(deps, admin.orgId)
  if (links.mailed) await requireAccountMailBudget(deps, admin.orgId)
  return audited(deps.sql, admin, { action: 'invite', objectType: 'user', objectId: id }, async (tx) => {
    const link = await issueUserLink(tx, deps, { userId: id, purpose: 'invite', base: links.base })
    if (!links.mailed) return { invite_link: link }
    await queueMail(tx, invitationMail({ to: user.email, name: user.name, inviterName: admin.name, link }))
    return {}
  })
}

/**
 * A password-reset link, valid a day (`POST /api/users/<id>/reset_password`); none for a disabled user (404). Mailed
 * when mail is configured and Sightline knows its address (the answer is then empty), else returned.
 */
export async function resetPasswordLink(deps: Deps, principal: Principal | undefined, id: number) {
  const admin = requireAdmin(principal)
  const user = await targetOf(deps, admin, id)
  if (user.disabled_at) throw new NotFound()
  const links = await linkDelivery(deps, admin.orgId)
  if (links.mailed) await requireAccountMailBudget(deps, admin.orgId)
  return audited(deps.sql, admin, { action: 'reset_password', objectType: 'user', objectId: id }, async (tx) => {
    const link = await issueUserLink(tx, deps, { userId: id, purpose: 'reset', base: links.base })
    if (!links.mailed) return { reset_link: link }
    await queueMail(tx, passwordResetMail({ to: user.email, name: user.name, link }))
    return {}
  })
}
