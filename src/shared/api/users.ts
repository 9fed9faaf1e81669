/**
 * A user as `api/users`, `api/users/{id}` and `api/session` answer it, and as other objects carry their owner
 * (reference §2.4 `User.to_dict`). The one declaration the serializer and the islands share.
 */
export interface UserJson {
  id: number
  name: string
  email: string
  profile_image_url: string
  /** Group ids, or `{id, name}` where the caller asked for the groups by name (a user's own page). */
  groups: number[] | { id: number; name: string }[]
  updated_at: string | null
  created_at: string | null
  disabled_at: string | null
  is_disabled: boolean
  active_at: string | null
  is_invitation_pending: boolean
  is_email_verified: boolean
  auth_type: 'password' | 'external'
  /** Only for the user themself and admins. */
  api_key?: string | null
}

/** A user where another object names them (an alert subscription, a list row): who, not their account's state. */
export type UserRefJson = Pick<UserJson, 'id' | 'email'> & Partial<Pick<UserJson, 'name'>>

/** A group as `api/groups` answers it (reference §2.5). */
export interface GroupJson {
  id: number
  name: string
  type: 'builtin' | 'regular'
  permissions: string[]
  created_at: string | null
}
