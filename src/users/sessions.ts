import type { Deps } from '../deps.ts'
import { NotFound, Forbidden } from '../errors.ts'
import { audited, recordAudit } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { isAdmin, requirePrincipal } from '../permissions/index.ts'
import { deviceName } from './device.ts'
import { deleteSessionById, deleteUserSessions, findUserById, liveSessions } from './store.ts'

/**
 * The caller may see and end a user's sessions when they are that user or an admin; anyone else learns nothing
 * (404 for a user of another organization, 403 otherwise).
 */
async function sessionsOwner(deps: Deps, principal: Principal | undefined, userId: number): Promise<Principal> {
  const caller = requirePrincipal(principal)
  if (caller.id !== userId && !isAdmin(caller)) throw new Forbidden()
  if (!(await findUserById(deps.sql, caller.orgId, userId))) throw new NotFound()
  return caller
}

/**
 * A user's signed-in sessions, most recently used first: the device their browser names, the address, when it was
 * opened and last used, and which one is the caller's own. Sessions are named by their row id: the token's hash
 * stays on the server.
 */
export async function listSessions(deps: Deps, principal: Principal | undefined, userId: number) {
  const caller = await sessionsOwner(deps, principal, userId)
  const rows = await liveSessions(deps.sql, userId)
  return rows.map((row) => ({
    id: row.id, device: deviceName(row.user_agent), user_agent: row.user_agent, ip: row.ip,
    created_at: row.created_at.toISOString(), last_seen_at: row.last_seen_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    current: caller.sessionHash !== undefined && row.token_hash.toString('hex') === caller.sessionHash,
  }))
}

/** End one of a user's sessions; it stops working at once in every web process (the cache bus). */
export async function endSession(
  deps: Deps, principal: Principal | undefined, userId: number, sessionId: number, meta: { ip?: string } = {},
) {
  const caller = await sessionsOwner(deps, principal, userId)
  const hash = await deps.sql.begin(async (tx) => {
    const ended = await deleteSessionById(tx, userId, sessionId)
    if (ended) {
      await recordAudit(tx, caller, { action: 'end_session', objectType: 'user', objectId: userId, properties: { session_id: sessionId, ip: meta.ip } })
    }
    return ended
  })
  if (!hash) throw new NotFound('There is no such session.')
  await deps.bus.invalidate('session', hash.toString('hex'))
}

/** End every session of a user (an admin's action, or the user's own "sign out everywhere"); returns how many. */
export async function endAllSessions(deps: Deps, principal: Principal | undefined, userId: number, meta: { ip?: string } = {}) {
  const caller = await sessionsOwner(deps, principal, userId)
  const ended = await audited(
    deps.sql, caller, (count) => ({ action: 'end_all_sessions', objectType: 'user', objectId: userId, properties: { ended: count, ip: meta.ip } }),
    (tx) => deleteUserSessions(tx, userId, null),
  )
  await deps.bus.invalidate('user', userId)
  return ended
}
