import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND, shellIslands } from '../helpers/pages.ts'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** The server-rendered profile, users and group members pages: who gets what, the spec's texts, which scripts. */
let t: TestApp
let admin: Client
let member: Client
let viewer: Client
let bo: { id: number; apiKey: string }
let viId: number
let deeId: number
let groupIds: { admin: number; default: number; readers: number }

const SHELL_ISLANDS = shellIslands()

const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: (await res.text()).replaceAll('<!-- -->', '') }
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  bo = await addUser(t, { name: 'Bo Builder', email: 'bo@example.com', password: 'bo-password' })
  member = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  viId = (await addUser(t, { name: 'Vi Viewer', email: 'vi@example.com', password: 'vi-password' })).id
  deeId = (await addUser(t, { name: 'Dee Disabled', email: 'dee@example.com', password: 'dee-password', disabled: true })).id
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
  const [readers] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${['view_query']}) returning id`
  await t.db.sql`delete from user_groups where user_id = ${viId}`
  await t.db.sql`insert into user_groups (user_id, group_id) values (${viId}, ${readers.id})`
  viewer = (await signInAs(t.app, 'vi@example.com', 'vi-password')).client
  const groups = await t.db.sql<{ id: number; name: string }[]>`select id, name from groups where type = 'builtin'`
  groupIds = { admin: groups.find((g) => g.name === 'admin')!.id, default: groups.find((g) => g.name === 'default')!.id, readers: readers.id }
})
afterAll(() => t.close())

describe('who may open the pages', () => {
  it.each(['/users', '/users/disabled', '/users/me', '/users/1', '/groups/1'])('sends an anonymous visitor of %s to sign in', async (path) => {
    const res = await new Client(t.app).get(path)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`)
  })

  it('shows the users list to holders of list_users, the disabled users to admins only', async () => {
    expect((await page(member, '/users')).status).toBe(200)
    expect((await page(member, '/users/pending')).status).toBe(200)
    for (const [client, path] of [[viewer, '/users'], [viewer, '/users/pending'], [member, '/users/disabled']] as const) {
      const { status, html } = await page(client, path)
      expect(status, path).toBe(403)
      expect(html).toContain(FORBIDDEN)
    }
    expect((await page(admin, '/users/disabled')).status).toBe(200)
  })

  it('shows everyone their own profile, others\' only to those who may list users', async () => {
    expect((await page(viewer, '/users/me')).status).toBe(200)
    expect((await page(viewer, `/users/${viId}`)).status).toBe(200)
    expect((await page(viewer, `/users/${bo.id}`)).status).toBe(403)
    expect((await page(member, `/users/${viId}`)).status).toBe(200)
  })

  it('shows a group\'s members to admins and to members who may list users', async () => {
    expect((await page(member, `/groups/${groupIds.default}`)).status).toBe(200)
    expect((await page(member, `/groups/${groupIds.admin}`)).status).toBe(403) // not a member
    expect((await page(viewer, `/groups/${groupIds.readers}`)).status).toBe(403) // a member without list_users
    expect((await page(admin, `/groups/${groupIds.readers}`)).status).toBe(200)
  })

  it('answers unknown ids with the 404 page', async () => {
    for (const path of ['/users/424242', '/groups/424242', '/users/abc', '/users/0']) {
      const { status, html } = await page(admin, path)
      expect(status, path).toBe(404)
      expect(html).toContain(NOT_FOUND)
    }
  })
})

describe('/users', () => {
  it('lists active users newest first under the settings tabs, with the sidebar, a search form and rows linking to profiles', async () => {
    const { html } = await page(admin, '/users')
    expect(html).toContain('<title>Users | Sightline</title>')
    expect(html).toMatch(/<a href="\/users" aria-current="page"[^>]*>Users<\/a>/)
    const sidebar = /<nav aria-label="Users"[^>]*>(.*?)<\/nav>/s.exec(html)![1]
    expect([...sidebar.matchAll(/href="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[2], m[1]])).toEqual([
      ['Active Users', '/users'], ['Pending Invitations', '/users/pending'], ['Disabled Users', '/users/disabled'],
    ])
    expect(html).toMatch(/<form role="search"[^>]*action="\/users" method="get"/)
    expect(html).toMatch(/<input id="users-search"[^>]*type="search"[^>]*name="q"[^>]*value=""/)
    const rows = [...html.matchAll(/<a href="\/users\/(\d+)"/g)].map((m) => Number(m[1]))
    expect(rows).toEqual([viId, bo.id, 1]) // newest first; Dee is disabled
    expect(html).toContain('aria-sort="descending"') // Joined
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'ListSearch'].sort())
  })

  it('hides Disabled Users from those who are not admins', async () => {
    const { html } = await page(member, '/users')
    expect(html).not.toContain('Disabled Users')
    expect(html).toContain('Pending Invitations')
  })

  it('searches with ?q= on the server, keeps the query in the links, and says when nothing matches', async () => {
    let { html } = await page(admin, '/users?q=BUILD')
    expect([...html.matchAll(/<a href="\/users\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual([bo.id])
    expect(html).toContain('value="BUILD"')
    expect(html).toContain('href="/users?q=BUILD&amp;order=name"') // sorting keeps the search
    ;({ html } = await page(admin, '/users?q=nobody'))
    expect(html).toContain('No user matches your search.')
  })

  it('pages 25 at a time with 10, 25 and 50 to choose from, clamping pages past the end', async () => {
    for (let i = 1; i <= 24; i++) await addUser(t, { name: `Person ${i}`, email: `p${i}@corp.test`, password: 'person-password' })
    let { html } = await page(admin, '/users')
    expect(html.match(/<tr class="hover/g)).toHaveLength(25)
    expect(html).toContain('Page 1 of 2')
    expect(html).toContain('href="/users?page=2"')
    for (const size of [10, 25, 50]) expect(html).toMatch(new RegExp(`>${size}</a>`))
    ;({ html } = await page(admin, '/users?page=2'))
    expect(html.match(/<tr class="hover/g)).toHaveLength(2)
    ;({ html } = await page(admin, '/users?page_size=10&page=99'))
    expect(html).toContain('Page 3 of 3')
    ;({ html } = await page(admin, '/users?page_size=7'))
    expect(html.match(/<tr class="hover/g)).toHaveLength(25) // not an offered size: the default
    await t.db.sql`delete from users where email like '%@corp.test'`
  })

  it('lists disabled users on their own page', async () => {
    const { html } = await page(admin, '/users/disabled')
    expect(html).toContain('<title>Disabled Users · Users | Sightline</title>')
    expect([...html.matchAll(/<a href="\/users\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual([deeId])
    expect((await page(admin, '/users/pending')).html).toContain('There are no pending invitations.')
  })
})

describe('profiles', () => {
  it('gives the user their own profile to edit, with their key, read-only groups and the password section', async () => {
    const res = await member.get('/users/me')
    expect(res.headers.get('cache-control')).toBe('no-store') // the page carries the key
    const html = await res.text()
    expect(html).toContain('<title>Profile | Sightline</title>')
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'ProfileEditor', 'ReportList'].sort())
    const props = islandProps(html, 'ProfileEditor') as { user: { api_key?: string; groups: { name: string }[] }; allGroups: unknown; canChangePassword: boolean }
    expect(props.user.api_key).toBe(bo.apiKey)
    expect(props.user.groups.map((g) => g.name)).toEqual(['default'])
    expect(props.allGroups).toBeNull()
    expect(props.canChangePassword).toBe(true)
    expect(html).toContain('id="edit"') // the menu's Edit Profile link lands here
    expect(html).toMatch(/<h1[^>]*>Bo Builder<\/h1>/)
  })

  it('gives an admin someone else\'s profile with their key and every group to choose from, without the password section', async () => {
    const { html } = await page(admin, `/users/${bo.id}`)
    expect(html).toContain('<title>Bo Builder | Sightline</title>')
    const props = islandProps(html, 'ProfileEditor') as { user: { api_key?: string }; allGroups: { name: string }[]; canChangePassword: boolean }
    expect(props.user.api_key).toBe(bo.apiKey)
    expect(props.allGroups.map((g) => g.name)).toEqual(['admin', 'default', 'Readers'])
    expect(props.canChangePassword).toBe(false)
  })

  it('shows others a read-only profile: name, email and groups, no key, no script of its own', async () => {
    const { html } = await page(member, '/users/1')
    expect(islandsOf(html)).toEqual(SHELL_ISLANDS)
    expect(html).toMatch(/<h1[^>]*>Ada Admin<\/h1>/)
    expect(html).toContain('ada@example.com')
    expect(html).toMatch(/<li class="[^"]*">admin<\/li><li class="[^"]*">default<\/li>/)
    expect(html).not.toContain('key1')
    expect(html).not.toContain('API Key')
    expect(html).not.toMatch(/<input/)
  })

  it('keeps a disabled user\'s profile read-only, also for admins', async () => {
    const { html } = await page(admin, `/users/${deeId}`)
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'UserActions'].sort()) // Enable, and no editor
    expect(html).toContain('This user is disabled. Their profile cannot be changed.')
    expect(html).not.toContain(`key${deeId}`)
  })

  it('shows a profile without the settings tabs to someone who has none', async () => {
    const { html } = await page(viewer, '/users/me')
    expect(html).not.toContain('<nav aria-label="Settings"')
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'ProfileEditor'].sort())
  })
})

describe('/groups/{id}', () => {
  it('gives admins the members with Remove and Add Members, and the same side menu as Data Sources', async () => {
    const { html } = await page(admin, `/groups/${groupIds.default}`)
    expect(html).toContain('<title>default · Members | Sightline</title>')
    expect(html).toMatch(/<h1[^>]*>default<\/h1><span[^>]*>built-in<\/span>/)
    expect(html).toMatch(new RegExp(`href="/groups/${groupIds.default}" aria-current="page"`))
    expect(html).toContain(`href="/groups/${groupIds.default}/data_sources"`)
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'GroupMembers'].sort())
    const props = islandProps(html, 'GroupMembers') as { members: { name: string }[]; currentUserId: number; group: { builtin: boolean } }
    expect(props.members.map((m) => m.name)).toEqual(['Ada Admin', 'Bo Builder', 'Dee Disabled'])
    expect(html).toMatch(/Dee Disabled<\/span><span[^>]*>Disabled<\/span>/)
    expect(props.group.builtin).toBe(true)
    expect(html).toContain('Add Members')
    expect(html).toContain('aria-label="Remove Bo Builder"')
    expect(html).not.toContain('aria-label="Remove Ada Admin"') // not oneself from a built-in group
  })

  it('shows members a plain list without actions or script, and no Data Sources entry', async () => {
    const { html } = await page(member, `/groups/${groupIds.default}`)
    expect(islandsOf(html)).toEqual(SHELL_ISLANDS)
    expect(html).toContain('>Bo Builder<')
    expect(html).not.toContain('Remove')
    expect(html).not.toContain('Add Members')
    expect(html).not.toContain('/data_sources"')
  })

  it('says so when the group has no members', async () => {
    await t.db.sql`delete from user_groups where group_id = ${groupIds.readers}`
    expect((await page(admin, `/groups/${groupIds.readers}`)).html).toContain('There are no members in this group yet.')
  })
})
