import { Hono, type Context } from 'hono'
import { NotFound } from '../errors.ts'
import { aclJson, grantJson, type Acl, type GrantRow } from '../grants/index.ts'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import type { CallerEnv, Env } from './env.ts'
import { requireCaller } from './middleware/require-caller.ts'
import { idParam, jsonBody } from './validate.ts'

/** What a kind of object offers for favourites and edit grants; each verb checks the caller's rights itself. */
export interface ObjectVerbs {
  /** the grants' type name on the wire (`queries`, `dashboards`) */
  type: 'queries' | 'dashboards'
  setFavorite(deps: Deps, principal: Principal, id: number, favorite: boolean): Promise<void>
  acl(deps: Deps, principal: Principal, id: number): Promise<Acl>
  grant(deps: Deps, principal: Principal, id: number, body: unknown): Promise<GrantRow>
  revoke(deps: Deps, principal: Principal, id: number, body: unknown): Promise<void>
  holds(deps: Deps, principal: Principal, id: number, accessType: string): Promise<boolean>
}

/** Answers carry the caller's own rights and grants: nothing a cache may keep. */
function privateJson<E extends Env>(c: Context<E>, body: unknown) {
  c.header('Cache-Control', 'no-store')
  return c.json(body)
}

/**
 * `/:id/favorite` and `/:id/acl…`, the same for every kind that has them (reference §2.4, §3.1, §7.1): star and unstar,
 * the ACL, grant, revoke (the grant named in a JSON body, as the established tool's client sends it) and the check.
 */
export function objectRoutes(verbs: ObjectVerbs) {
  const id = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)
  const favorite = (on: boolean) => async (c: Context<CallerEnv>) => {
    await verbs.setFavorite(c.get('deps'), c.var.principal, id(c), on)
    return privateJson(c, null)
  }
  return new Hono<Env>()
    .post('/:id/favorite', requireCaller, favorite(true))
    .delete('/:id/favorite', requireCaller, favorite(false))
    .get('/:id/acl', requireCaller, async (c) => privateJson(c, aclJson(await verbs.acl(c.get('deps'), c.var.principal, id(c)))))
    .post('/:id/acl', requireCaller, async (c) => {
      const grant = await verbs.grant(c.get('deps'), c.var.principal, id(c), await jsonBody(c.req))
      return privateJson(c, grantJson(verbs.type, grant))
    })
    .delete('/:id/acl', requireCaller, async (c) => {
      await verbs.revoke(c.get('deps'), c.var.principal, id(c), await jsonBody(c.req))
      return privateJson(c, null)
    })
    .get('/:id/acl/:access_type', requireCaller, async (c) =>
      privateJson(c, { response: await verbs.holds(c.get('deps'), c.var.principal, id(c), c.req.param('access_type')) }))
}
