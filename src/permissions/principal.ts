/** Who is calling: a signed-in user (by session cookie or by their API key). */
export interface UserPrincipal {
  kind: 'user'
  id: number
  orgId: number
  name: string
  email: string
  profileImageUrl: string
  groupIds: number[]
  permissions: string[]
  isEmailVerified: boolean
  /** How the request proved who it is; CSRF applies only to the session cookie. */
  via: 'session' | 'api_key'
}

export type Principal = UserPrincipal
