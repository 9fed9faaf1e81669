import type { UserJson } from '../shared/api/users.ts'
import type { UserRow } from './store.ts'
import type { GroupRow } from '../groups/index.ts'
import { iso } from '../shared/time.ts'
import { profileImageUrl } from '../permissions/index.ts'

export { profileImageUrl } from '../permissions/index.ts'

/**
 * A user as the API shows them (reference §1.6 `to_dict`); the API key only when the caller may see it, from the
 * opened copy the service adds (`api_key`; the row itself has only the sealed one).
 */
export function userJson(row: UserRow & { api_key?: string | null }, o: { withApiKey: boolean; groups?: GroupRow[] }): UserJson {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile_image_url: row.disabled_at ? '/static/images/avatar.svg' : profileImageUrl(row.email, row.profile_image_url),
    groups: o.groups ? o.groups.map((g) => ({ id: g.id, name: g.name })) : row.group_ids,
    updated_at: iso(row.updated_at),
    created_at: iso(row.created_at),
    disabled_at: iso(row.disabled_at),
    is_disabled: row.disabled_at !== null,
    active_at: iso(row.active_at),
    is_invitation_pending: row.is_invitation_pending,
    is_email_verified: row.is_email_verified,
    auth_type: row.password_hash ? 'password' : 'external',
    ...(o.withApiKey ? { api_key: row.api_key ?? null } : {}),
  }
}
