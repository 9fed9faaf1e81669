/** The front door of src/scim/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { resourceTypes, schemas, serviceProviderConfig } from './discovery.ts'
export { createScimGroup, deleteScimGroup, getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from './groups.ts'
export { listResponse, ScimError, scimErrorJson } from './resources.ts'
export { generateScimToken, orgForScimToken, revokeScimToken, scimTokenStatus } from './tokens.ts'
export { createScimUser, deleteScimUser, getScimUser, listScimUsers, patchScimUser, replaceScimUser } from './users.ts'
export type { ScimContext } from './users.ts'
