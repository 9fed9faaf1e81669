import type { Deps } from '../deps.ts'
import { audited, recordAudit } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { randomToken, sha256 } from '../credentials/index.ts'
import { deleteScimToken, findScimTokenOrg, replaceScimToken, scimTokenCreatedAt } from './store.ts'

/**
 * The organization's SCIM bearer token: an admin makes it (shown once, kept only as its hash), makes a new one (the
 * old one stops at once) or revokes it. It authenticates SCIM requests and nothing else; user API keys and sessions
 * do not authenticate SCIM.
 */
const PREFIX = 'scim_'

export async function generateScimToken(deps: Deps, principal: Principal | undefined) {
  const admin = requireAdmin(principal)
  const token = PREFIX + randomToken(32)
  await audited(deps.sql, admin, { action: 'create', objectType: 'scim_token', objectId: admin.orgId }, (tx) =>
    replaceScimToken(tx, admin.orgId, sha256(token), admin.id))
  return { token, created_at: new Date().toISOString() }
}

export async function revokeScimToken(deps: Deps, principal: Principal | undefined) {
  const admin = requireAdmin(principal)
  await deps.sql.begin(async (tx) => {
    if (await deleteScimToken(tx, admin.orgId)) {
      await recordAudit(tx, admin, { action: 'delete', objectType: 'scim_token', objectId: admin.orgId })
    }
  })
}

export async function scimTokenStatus(deps: Deps, principal: Principal | undefined) {
  const admin = requireAdmin(principal)
  const at = await scimTokenCreatedAt(deps.sql, admin.orgId)
  return { exists: Boolean(at), created_at: at?.toISOString() ?? null }
}

/** The organization an `Authorization: Bearer` SCIM token belongs to, or undefined (read fresh: a revoke applies at once). */
export async function orgForScimToken(deps: Deps, authorization: string | undefined): Promise<number | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')
  if (!match || !match[1].startsWith(PREFIX)) return undefined
  return findScimTokenOrg(deps.sql, sha256(match[1]))
}
