/** The front door of src/permissions/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { allowed, allowedBy, isAdmin, isAdminOrOwner, isSuperAdmin } from './can.ts'
export { ADMIN_PERMISSIONS, BUILTIN_GROUPS, DEFAULT_PERMISSIONS } from './catalog.ts'
export { mayCancel, mayModify, mayRunOn, queryKeyOpens, sourceAccess } from './objects.ts'
export type { Principal } from './principal.ts'
export { profileImageUrl } from './profile-image.ts'
export { requireAdmin, requireAdminOrOwner, requireAllowed, requirePrincipal } from './require.ts'
