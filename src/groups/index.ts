/** The front door of src/groups/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { createGroup, deleteRegularGroup, renameRegularGroup } from './lifecycle.ts'
export { canSeeMembers, groupJson, memberTexts, visibleGroup, visibleGroups } from './service.ts'
export { addGroupMember, deleteGroup, findGroup, findGroupsByIds, insertGroup, listGroups, removeGroupMember, renameGroup } from './store.ts'
export type { GroupRow } from './store.ts'
