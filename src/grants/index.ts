/** The front door of src/grants/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { aclJson, grantJson } from './serialize.ts'
export { canModify, grantAccess, grantedTo, holdsGrant, listAcl, revokeAccess } from './service.ts'
export type { Acl, GrantTarget } from './service.ts'
export type { GrantRow } from './store.ts'
