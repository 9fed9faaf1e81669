import { describe, expect, it } from 'vitest'
import { allowed, allowedBy, isAdminOrOwner, isSuperAdmin } from './can.ts'
import { mayCancel, mayModify, mayRunOn, queryKeyOpens, sourceAccess } from './objects.ts'
import type { Principal } from './principal.ts'

const principal = (id: number, permissions: string[]): Principal => ({
  kind: 'user', id, orgId: 1, name: 'P', email: 'p@example.com', profileImageUrl: '', groupIds: [], permissions, isEmailVerified: true, via: 'session',
})
const member = principal(2, ['view_query', 'execute_query'])
const admin = principal(1, ['admin'])
const none = async () => undefined

describe('one meaning of allowed', () => {
  it('gives a permission to whoever holds it and to admins', () => {
    expect(allowed(member, 'view_query')).toBe(true)
    expect(allowed(member, 'edit_query')).toBe(false)
    expect(allowed(admin, 'edit_query')).toBe(true)
    expect(allowed(undefined, 'view_query')).toBe(false)
    expect(allowedBy(['admin'], 'list_users')).toBe(true)
  })

  it('keeps super_admin its own right: an admin without it does not pass', () => {
    expect(allowed(admin, 'super_admin')).toBe(false)
    expect(isSuperAdmin(admin)).toBe(false)
    expect(isSuperAdmin(principal(1, ['admin', 'super_admin']))).toBe(true)
  })
})

describe('object rights', () => {
  it('admins have full access to every source; others what their groups give', () => {
    expect(sourceAccess(admin, undefined)).toEqual({ view_only: false })
    expect(sourceAccess(member, undefined)).toBeUndefined()
    expect(sourceAccess(member, { view_only: true })).toEqual({ view_only: true })
  })

  it('runs new text only with full access and execute_query', () => {
    expect(mayRunOn(member, { view_only: false })).toBe(true)
    expect(mayRunOn(member, { view_only: true })).toBe(false)
    expect(mayRunOn(member, undefined)).toBe(false)
    expect(mayRunOn(principal(3, ['view_query']), { view_only: false })).toBe(false)
  })

  it('lets the starter, an admin, or a full member stop a run, reading access only when it decides', async () => {
    expect(await mayCancel(member, { user_id: 2 }, () => { throw new Error('not read') })).toBe(true)
    expect(await mayCancel(admin, { user_id: 2 }, () => { throw new Error('not read') })).toBe(true)
    expect(await mayCancel(member, { user_id: 9 }, none)).toBe(false)
    expect(await mayCancel(member, { user_id: 9 }, async () => ({ view_only: false }))).toBe(true)
  })

  it('lets admins, owners and grantees modify', async () => {
    expect(isAdminOrOwner(member, 2)).toBe(true)
    expect(await mayModify(member, 9, async () => false)).toBe(false)
    expect(await mayModify(member, 9, async () => true)).toBe(true)
    expect(await mayModify(admin, 9, async () => false)).toBe(true)
  })

  it('opens a query by its own key only, and never once archived', () => {
    const key = Buffer.alloc(32, 7)
    expect(queryKeyOpens({ is_archived: false, api_key_hash: key }, Buffer.alloc(32, 7))).toBe(true)
    expect(queryKeyOpens({ is_archived: false, api_key_hash: key }, Buffer.alloc(32, 8))).toBe(false)
    expect(queryKeyOpens({ is_archived: true, api_key_hash: key }, Buffer.alloc(32, 7))).toBe(false)
    expect(queryKeyOpens({ is_archived: false, api_key_hash: key }, Buffer.alloc(3, 7))).toBe(false)
  })
})
