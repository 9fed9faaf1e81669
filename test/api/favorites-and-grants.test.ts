import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { favoriteIds, isFavorite, setFavorite } from '../../src/favorites/index.ts'
import { splitHostParameter } from '../../src/db/index.ts'
import { canModify, grantAccess, holdsGrant, listAcl, revokeAccess, type GrantTarget } from '../../src/grants/index.ts'
import { OBJECT_TYPES, STORED_OBJECT_TYPE } from '../../src/object-types.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { usersByIds } from '../../src/users/index.ts'
import { addUser, createTestApp, setUp, type TestApp } from '../helpers/app.ts'

/**
 * Favourites and grants are written once for every kind of object (src/object-types.ts): these call them for
 * dashboards, which have no routes yet, to show a new kind needs nothing but its own access checks.
 */
let t: TestApp
let orgId: number
let ada: Principal
let bo: Principal
let cleo: Principal

const principal = (id: number, admin = false): Principal => ({
  kind: 'user', id, orgId, name: `User ${id}`, email: `user${id}@example.com`, profileImageUrl: '', groupIds: [],
  permissions: admin ? ['admin'] : ['view_query'], isEmailVerified: true, via: 'session',
})

beforeAll(async () => {
  t = await createTestApp()
  await setUp(t.app)
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const [admin] = await t.db.sql<{ id: number }[]>`select id from users order by id limit 1`
  orgId = org.id
  ada = principal(admin.id, true)
  bo = principal((await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })).id)
  cleo = principal((await addUser(t, { name: 'Cleo', email: 'cleo@example.com', password: 'cleo-password' })).id)
})
afterAll(() => t.close())

describe('object types', () => {
  it('name a stored value for every kind, as the tables\' checks allow', async () => {
    for (const type of OBJECT_TYPES) {
      await t.db.sql`insert into favorites (user_id, object_type, object_id) values (${bo.id}, ${STORED_OBJECT_TYPE[type]}, 424242)`
    }
    await t.db.sql`delete from favorites where object_id = 424242`
  })
})

describe('favourites', () => {
  it('star and un-star a dashboard, apart from a query of the same id, with audit events', async () => {
    await setFavorite(t.deps, bo, 'dashboards', 7, true)
    await setFavorite(t.deps, bo, 'dashboards', 7, true)
    expect(await isFavorite(t.db.sql, bo, 'dashboards', 7)).toBe(true)
    expect(await isFavorite(t.db.sql, bo, 'queries', 7)).toBe(false)
    expect(await isFavorite(t.db.sql, cleo, 'dashboards', 7)).toBe(false)
    await setFavorite(t.deps, bo, 'dashboards', 9, true)
    expect([...await favoriteIds(t.db.sql, bo.id, 'dashboards', [7, 8, 9])].sort()).toEqual([7, 9])
    expect(await favoriteIds(t.db.sql, bo.id, 'queries', [7, 8, 9])).toEqual(new Set())
    expect(await favoriteIds(t.db.sql, bo.id, 'dashboards', [])).toEqual(new Set())

    await setFavorite(t.deps, bo, 'dashboards', 7, false)
    expect(await isFavorite(t.db.sql, bo, 'dashboards', 7)).toBe(false)
    const events = await t.db.sql`select action, object_type, object_id from events where user_id = ${bo.id} order by id`
    expect(events.map((e) => [e.action, e.object_type, e.object_id])).toEqual([
      ['favorite', 'dashboard', '7'], ['favorite', 'dashboard', '7'], ['favorite', 'dashboard', '9'], ['unfavorite', 'dashboard', '7'],
    ])
  })
})

describe('grants', () => {
  it('give modify on a dashboard, apart from a query of the same id, to whom its owner grants it', async () => {
    const board: GrantTarget = { type: 'dashboards', id: 11, ownerId: bo.id }
    const query: GrantTarget = { type: 'queries', id: 11, ownerId: bo.id }
    expect(await canModify(t.db.sql, cleo, board)).toBe(false)
    expect(await canModify(t.db.sql, bo, board)).toBe(true)
    expect(await canModify(t.db.sql, ada, board)).toBe(true)
    await expect(grantAccess(t.deps, cleo, board, { access_type: 'modify', user_id: cleo.id })).rejects.toMatchObject({ status: 403 })

    const grant = await grantAccess(t.deps, bo, board, { access_type: 'modify', user_id: cleo.id })
    expect(grant).toMatchObject({ object_id: 11, access_type: 'modify', grantor_id: bo.id, grantee_id: cleo.id })
    expect(await canModify(t.db.sql, cleo, board)).toBe(true)
    expect(await canModify(t.db.sql, cleo, query)).toBe(false)
    expect(await holdsGrant(t.deps, cleo, board, 'modify')).toBe(true)
    expect(await holdsGrant(t.deps, cleo, query, 'modify')).toBe(false)
    expect((await listAcl(t.deps, bo, board)).modify.map((u) => u.id)).toEqual([cleo.id])
    expect(await listAcl(t.deps, bo, query)).toEqual({ modify: [] })

    await revokeAccess(t.deps, ada, board, { access_type: 'modify', user_id: cleo.id })
    expect(await canModify(t.db.sql, cleo, board)).toBe(false)
    const [{ object_type: stored }] = await t.db.sql`select object_type from events where action = 'revoke_permission'`
    expect(stored).toBe('dashboard')
  })

  it('list grantees in the order they were granted and leave out users deleted since', async () => {
    const board: GrantTarget = { type: 'dashboards', id: 12, ownerId: bo.id }
    const dan = await addUser(t, { name: 'Dan', email: 'dan@example.com', password: 'dan-password' })
    await grantAccess(t.deps, ada, board, { access_type: 'modify', user_id: cleo.id })
    await grantAccess(t.deps, ada, board, { access_type: 'modify', user_id: dan.id })
    await grantAccess(t.deps, ada, board, { access_type: 'modify', user_id: bo.id })
    expect((await listAcl(t.deps, ada, board)).modify.map((u) => u.name)).toEqual(['Cleo', 'Dan', 'Bo'])
    await t.db.sql`delete from users where id = ${dan.id}`
    expect((await listAcl(t.deps, ada, board)).modify.map((u) => u.name)).toEqual(['Cleo', 'Bo'])
  })
})

describe('usersByIds', () => {
  it('reads many users in one query, skipping nulls, repeats, unknown ids and other organizations', async () => {
    const [other] = await t.db.sql<{ id: number }[]>`insert into organizations (name, slug) values ('Other', 'other') returning id`
    const [stranger] = await t.db.sql<{ id: number }[]>`
      insert into users (org_id, name, email) values (${other.id}, 'Stranger', 'stranger@example.com') returning id`
    // statements on the users table (the driver may ask for type information first)
    let statements = 0
    const { url, host } = splitHostParameter(t.db.url)
    const counted = postgres(url, {
      ...(host ? { host } : {}), max: 1, onnotice: () => {}, debug: (_connection, query) => { if (/\bfrom users\b/.test(String(query))) statements++ },
      types: { bigint: { to: 20, from: [20], serialize: (x: number) => String(x), parse: (x: string) => Number(x) } },
    })
    try {
      const users = await usersByIds(counted as never, orgId, [bo.id, null, cleo.id, bo.id, ada.id, 987654, stranger.id])
      expect(statements).toBe(1)
      expect([...users.keys()].sort((a, b) => a - b)).toEqual([ada.id, bo.id, cleo.id].sort((a, b) => a - b))
      expect(users.get(cleo.id)).toMatchObject({ name: 'Cleo', email: 'cleo@example.com' })
      expect(await usersByIds(counted as never, orgId, [null])).toEqual(new Map())
      expect(statements).toBe(1)
    } finally {
      await counted.end()
    }
  })
})
