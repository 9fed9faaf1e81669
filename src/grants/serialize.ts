import type { ObjectType } from '../object-types.ts'
import { userJson } from '../users/index.ts'
import type { Acl } from './service.ts'
import type { GrantRow } from './store.ts'

/** GET /api/<type>/<id>/acl (reference §2.6): grantees by access type, as users without their API keys. */
export function aclJson(acl: Acl) {
  return Object.fromEntries(Object.entries(acl).map(([type, users]) => [type, users.map((u) => userJson(u, { withApiKey: false }))]))
}

/** A grant as POST /api/<type>/<id>/acl answers it: grantor and grantee are user ids. */
export function grantJson(type: ObjectType, g: GrantRow) {
  return { id: g.id, object_id: g.object_id, object_type: type, access_type: g.access_type, grantor: g.grantor_id, grantee: g.grantee_id }
}
