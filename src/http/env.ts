import type { Deps } from '../deps.ts'
import type { OrgContext } from '../orgs/index.ts'
import type { Principal } from '../permissions/index.ts'

/** The typed Hono context every route sees: `c.get('deps')`, `c.get('principal')`, `c.get('org')`. */
export type Env = {
  Variables: {
    deps: Deps
    requestId: string
    /** The caller, when the request proved who it is. */
    principal: Principal | undefined
    /** The session cookie's token, when the caller came by session (for CSRF and sign-out). */
    sessionToken: string | undefined
    /** The csrf_token cookie as the browser sent it (read once with the session cookie). */
    csrfCookie: string | undefined
    /**
     * An API key the request carried that is not a user's key (a query's or a dashboard's): the routes of that
     * object check it themselves.
     */
    objectApiKey: string | undefined
    /** The installation's organization; undefined only before setup. */
    org: OrgContext | undefined
  }
}

/**
 * The context of a route behind `requireCaller`: the caller proved who it is, so `c.var.principal` and `c.var.org`
 * are there (a principal only comes from a user of the organization, so the organization is set up).
 */
export type CallerEnv = {
  Variables: Omit<Env['Variables'], 'principal' | 'org'> & { principal: Principal; org: OrgContext }
}
