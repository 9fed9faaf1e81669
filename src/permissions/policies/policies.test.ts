import { describe, expect, it } from 'vitest'
import { Forbidden } from '../../errors.ts'
import { DEFAULT_PERMISSIONS } from '../catalog.ts'
import type { Principal } from '../principal.ts'
import { alertPolicy, alertSubscriptionPolicy } from './alert.ts'
import { dashboardPolicy } from './dashboard.ts'
import { dataSourcePolicy } from './data-source.ts'
import { destinationPolicy } from './destination.ts'
import { groupPolicy } from './group.ts'
import { queryPolicy, queryRefusals } from './query.ts'
import { allOf, NO_PERMISSION, requireRight } from './right.ts'
import { snippetPolicy } from './snippet.ts'
import { userPolicy } from './user.ts'

const person = (id: number, permissions: readonly string[], groupIds: number[] = [2]): Principal => ({
  kind: 'user', id, orgId: 1, name: `P${id}`, email: `p${id}@example.com`, profileImageUrl: '', groupIds,
  permissions: [...permissions], isEmailVerified: true, via: 'session',
})
const admin = person(1, ['admin'], [1, 2])
const owner = person(2, DEFAULT_PERMISSIONS)
const colleague = person(3, DEFAULT_PERMISSIONS)
// the established tool's view-only member: a group with view_query only, on a view-only source
const viewer = person(4, ['view_query', 'list_dashboards', 'list_alerts', 'list_data_sources'])
const FULL = { view_only: false }
const VIEW_ONLY = { view_only: true }

describe('query policy', () => {
  const row = { user_id: owner.id, is_archived: false, is_safe: false }

  it('lets the owner do everything on a source their groups fully give', () => {
    const r = queryPolicy(owner, row, FULL, [])
    expect(Object.values(r).every((right) => right === true)).toBe(true)
  })

  it('lets a colleague read, fork and run but edit only with a modify grant', () => {
    const r = queryPolicy(colleague, row, FULL, [])
    expect([r.view, r.fork, r.run, r.execute]).toEqual([true, true, true, true])
    expect(r.edit).toBe(queryRefusals.cannotEdit)
    expect(r.schedule).toBe(queryRefusals.cannotEdit)
    expect(r.manage).toBe(queryRefusals.cannotEdit)
    expect(r.holdApiKey).toBe(queryRefusals.viewOnly)
    expect(queryPolicy(colleague, row, FULL, ['modify']).edit).toBe(true)
    expect(queryPolicy(colleague, row, FULL, ['modify']).holdApiKey).toBe(true)
  })

  it('keeps an owner left with view-only access from editing, forking, running or holding the key', () => {
    const r = queryPolicy(owner, row, VIEW_ONLY, [])
    expect(r.view).toBe(true)
    expect([r.edit, r.fork, r.run, r.holdApiKey]).toEqual(Array(4).fill(queryRefusals.viewOnly))
    expect(r.manage).toBe(true) // archiving stays the owner's
  })

  it('runs a safe query for whoever sees it, and an archived one for nobody', () => {
    expect(queryPolicy(viewer, { ...row, is_safe: true }, VIEW_ONLY, []).execute).toBe(true)
    expect(queryPolicy(viewer, row, VIEW_ONLY, []).execute).toBe(queryRefusals.viewOnly)
    expect(queryPolicy(admin, { ...row, is_archived: true }, FULL, []).execute).toBe(NO_PERMISSION)
  })

  it('refuses everything but managing to a caller with no access to the source', () => {
    const r = queryPolicy(colleague, row, undefined, ['modify'])
    expect([r.view, r.edit, r.run]).toEqual([NO_PERMISSION, queryRefusals.viewOnly, queryRefusals.viewOnly])
  })

  it('gives admins every right, the key included', () => {
    expect(Object.values(queryPolicy(admin, row, FULL, [])).every((right) => right === true)).toBe(true)
  })
})

describe('dashboard policy', () => {
  const row = { user_id: owner.id }
  it('opens to whoever lists dashboards; edit needs ownership or a grant; sharing is the owner’s or an admin’s', () => {
    expect(dashboardPolicy(owner, row)).toEqual({ view: true, create: true, edit: true, share: true })
    const c = dashboardPolicy(colleague, row)
    expect([c.view, c.edit, c.share]).toEqual([true, "You don't have permission to edit this dashboard.", "You don't have permission to edit this resource."])
    expect(dashboardPolicy(colleague, row, ['modify']).edit).toBe(true)
    expect(dashboardPolicy(viewer, row, ['modify']).edit).toBe(NO_PERMISSION)
    expect(dashboardPolicy(viewer).create).toBe(NO_PERMISSION)
    expect(dashboardPolicy(admin, row).share).toBe(true)
  })
})

describe('alert policy', () => {
  const row = { user_id: owner.id }
  it('shows an alert to those who see its query; an owner who lost the query may still mute but not edit', () => {
    expect(alertPolicy(colleague, row, true)).toMatchObject({ view: true, list: true, manage: "You don't have permission to edit this alert." })
    const lost = alertPolicy(owner, row, false)
    expect([lost.view, lost.manage, lost.edit]).toEqual([NO_PERMISSION, true, "You don't have access to this query."])
    expect(alertPolicy(admin, row, true).edit).toBe(true)
    expect(alertSubscriptionPolicy(colleague, { user_id: owner.id })).toBe('Only the subscriber or an admin can remove this subscription.')
    expect(alertSubscriptionPolicy(admin, { user_id: owner.id })).toBe(true)
  })
})

describe('data source policy', () => {
  it('runs on full access with execute_query; views on any access; admins manage', () => {
    expect(dataSourcePolicy(colleague, FULL)).toEqual({ list: true, view: true, run: true, manage: NO_PERMISSION })
    expect(dataSourcePolicy(viewer, VIEW_ONLY).run).toBe("You don't have permission to run queries with this data source.")
    expect(dataSourcePolicy(colleague, undefined).view).toBe("You don't have access to this data source.")
    expect(dataSourcePolicy(admin)).toEqual({ list: true, view: true, run: true, manage: true })
  })
})

describe('the other kinds', () => {
  it('destinations: every member may use them, admins manage them', () => {
    expect(destinationPolicy(viewer)).toEqual({ use: true, manage: NO_PERMISSION })
    expect(destinationPolicy(admin).manage).toBe(true)
  })

  it('groups: members see their own group, and its members when they may list users', () => {
    expect(groupPolicy(colleague, { id: 2 })).toEqual({ view: true, seeMembers: true, manage: NO_PERMISSION })
    expect(groupPolicy(viewer, { id: 2 }).seeMembers).toBe(NO_PERMISSION)
    expect(groupPolicy(colleague, { id: 9 }).view).toBe(NO_PERMISSION)
    expect(groupPolicy(admin, { id: 9 })).toEqual({ view: true, seeMembers: true, manage: true })
  })

  it('users: oneself or an admin edits; a disabled profile is read-only; only admins list the disabled', () => {
    expect(userPolicy(colleague, { id: colleague.id })).toMatchObject({ view: true, edit: true, holdApiKey: true, changeGroups: 'Must be admin to change groups membership.' })
    expect(userPolicy(colleague, { id: owner.id })).toMatchObject({ view: true, edit: "You don't have permission to edit this resource.", holdApiKey: NO_PERMISSION })
    expect(userPolicy(viewer, { id: owner.id }).view).toBe(NO_PERMISSION)
    expect(userPolicy(admin, { id: owner.id, disabled_at: new Date() }).edit).toBe("A disabled user's profile cannot be changed.")
    expect(userPolicy(colleague).listDisabled).toBe('Only admins can list disabled users.')
    expect(userPolicy(admin).listDisabled).toBe(true)
  })

  it('snippets: readers of queries see them, writers create them, their authors and admins change them', () => {
    expect(snippetPolicy(viewer)).toMatchObject({ view: true, create: NO_PERMISSION })
    expect(snippetPolicy(colleague, { user_id: owner.id }).edit).toBe("You don't have permission to edit this resource.")
    expect(snippetPolicy(owner, { user_id: owner.id }).edit).toBe(true)
  })
})

describe('rights', () => {
  it('answer the first refusal in order, and guard with a 403 carrying its text', () => {
    expect(allOf(true, 'first', 'second')).toBe('first')
    expect(() => requireRight('Nope.')).toThrow(new Forbidden('Nope.'))
    expect(() => requireRight(true)).not.toThrow()
  })
})
