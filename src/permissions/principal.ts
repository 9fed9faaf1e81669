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
  /**
   * How the request proved who it is; CSRF applies only to the session cookie. `share_key`: the rights a dashboard's
   * share token carries (its creator's), never a request's signed-in caller. `run_as`: the rights of the user a
   * worker runs a query for (src/executions/query-references.ts), read when it runs.
   */
  via: 'session' | 'api_key' | 'share_key' | 'run_as'
  /** For a session caller: the hex SHA-256 of the session token, which names the session in the database. */
  sessionHash?: string
}

export type Principal = UserPrincipal
