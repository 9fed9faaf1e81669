import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audited, recordAudit } from '../../src/events/index.ts'
import type { Tx } from '../../src/db/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { createTestApp, setUp, type TestApp } from '../helpers/app.ts'

/** An audited change and its event commit together or not at all, as the principal's, in their organization. */
let t: TestApp
let admin: Principal

const eventsOf = (action: string) => t.db.sql<{ org_id: number; user_id: number | null; object_type: string; object_id: string | null; additional_properties: Record<string, unknown> }[]>`
  select org_id, user_id, object_type, object_id, additional_properties from events where action = ${action} order by id`
const nameOf = async (id: number) => (await t.db.sql<{ name: string }[]>`select name from users where id = ${id}`)[0].name
const rename = (name: string) => async (tx: Tx) => {
  await tx`update users set name = ${name} where id = ${admin.id}`
  return name.length
}

beforeAll(async () => {
  t = await createTestApp()
  await setUp(t.app)
  const [user] = await t.db.sql<{ id: number; org_id: number }[]>`select id, org_id from users order by id limit 1`
  admin = {
    kind: 'user', id: user.id, orgId: user.org_id, name: 'Admin', email: 'admin@example.com', profileImageUrl: '', groupIds: [],
    permissions: ['admin'], isEmailVerified: true, via: 'session',
  }
})
afterAll(() => t.close())

describe('audited', () => {
  it('records the event with the change, as the principal in their organization, and returns the change\'s value', async () => {
    const value = await audited(t.db.sql, admin, { action: 'audited_rename', objectType: 'user', objectId: admin.id, properties: { to: 'Ada' } }, rename('Ada'))
    expect(value).toBe(3)
    expect(await nameOf(admin.id)).toBe('Ada')
    expect(await eventsOf('audited_rename')).toEqual([
      { org_id: admin.orgId, user_id: admin.id, object_type: 'user', object_id: String(admin.id), additional_properties: { to: 'Ada' } },
    ])
  })

  it('spells the event from the change\'s value when given a function', async () => {
    await audited(t.db.sql, admin, (length) => ({ action: 'audited_length', objectType: 'user', objectId: length }), rename('Bea'))
    expect((await eventsOf('audited_length')).map((e) => [e.object_id, e.additional_properties])).toEqual([['3', {}]])
  })

  it('leaves neither the change nor an event when the change fails', async () => {
    const failing = async (tx: Tx) => {
      await rename('Never')(tx)
      throw new Error('refused')
    }
    await expect(audited(t.db.sql, admin, { action: 'audited_failed', objectType: 'user', objectId: admin.id }, failing)).rejects.toThrow('refused')
    expect(await nameOf(admin.id)).toBe('Bea')
    expect(await eventsOf('audited_failed')).toEqual([])
  })

  it('joins the caller\'s transaction, so a later failure there takes the event back with the change', async () => {
    await expect(t.db.sql.begin(async (tx) => {
      await audited(tx, admin, { action: 'audited_joined', objectType: 'user', objectId: admin.id }, rename('Cleo'))
      expect((await tx`select count(*)::int as n from events where action = 'audited_joined'`)[0].n).toBe(1)
      throw new Error('caller gave up')
    })).rejects.toThrow('caller gave up')
    expect(await nameOf(admin.id)).toBe('Bea')
    expect(await eventsOf('audited_joined')).toEqual([])
  })
})

describe('recordAudit', () => {
  it('spells the event from the principal inside the caller\'s transaction', async () => {
    await t.db.sql.begin((tx) => recordAudit(tx, admin, { action: 'audited_direct', objectType: 'group', objectId: null, properties: { n: 1 } }))
    expect(await eventsOf('audited_direct')).toEqual([
      { org_id: admin.orgId, user_id: admin.id, object_type: 'group', object_id: null, additional_properties: { n: 1 } },
    ])
  })
})
