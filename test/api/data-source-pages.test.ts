import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND, shellIslands } from '../helpers/pages.ts'
import { addUser, Client, createTestApp, pgOptionsFor, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/** The server-rendered pages for data sources and group access: who gets what, the spec's texts, which scripts. */
let t: TestApp
let admin: Client
let member: Client
let viewer: Client
let warehouseId: number
let groupIds: { admin: number; default: number }

const SHELL_ISLANDS = shellIslands()

/** The settings tabs in order, as [label, href]. */
function tabs(html: string): [string, string][] {
  const nav = /<nav aria-label="Settings"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? ''
  return [...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[2], m[1]])
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
  member = (await signInAs(t.app, 'bo@example.com', 'bo-password')).client
  // someone in a group of their own that may only view queries (no list_users)
  const { id: viewerId } = await addUser(t, { name: 'Vi', email: 'vi@example.com', password: 'vi-password' })
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
  const [readers] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${['view_query']}) returning id`
  await t.db.sql`delete from user_groups where user_id = ${viewerId}`
  await t.db.sql`insert into user_groups (user_id, group_id) values (${viewerId}, ${readers.id})`
  viewer = (await signInAs(t.app, 'vi@example.com', 'vi-password')).client
  const res = await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })
  warehouseId = (await res.json()).id
  const groups = await t.db.sql<{ id: number; name: string }[]>`select id, name from groups where type = 'builtin'`
  groupIds = { admin: groups.find((g) => g.name === 'admin')!.id, default: groups.find((g) => g.name === 'default')!.id }
})
afterAll(() => t.close())

describe('who may open the pages', () => {
  it.each(['/data_sources', '/data_sources/new', '/data_sources/1', '/groups', '/groups/1/data_sources'])(
    'sends an anonymous visitor of %s to sign in, and back afterwards', async (path) => {
      const res = await new Client(t.app).get(path)
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`)
    })

  it('shows the data source pages to admins only', async () => {
    for (const client of [member, viewer]) {
      for (const path of ['/data_sources', `/data_sources/${warehouseId}`, `/groups/${groupIds.default}/data_sources`]) {
        const res = await client.get(path)
        expect(res.status, path).toBe(403)
        expect(await res.text()).toContain(FORBIDDEN)
      }
    }
  })

  it('sends someone who cannot create a data source from /data_sources/new to the list', async () => {
    const res = await member.get('/data_sources/new')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/data_sources')
  })

  it('shows the groups list to holders of list_users, and not to others', async () => {
    expect((await member.get('/groups')).status).toBe(200)
    const res = await viewer.get('/groups')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain(FORBIDDEN)
  })

  it('answers unknown ids with the 404 page', async () => {
    for (const path of ['/data_sources/424242', '/data_sources/abc', '/groups/424242/data_sources', '/groups/x/data_sources']) {
      const res = await admin.get(path)
      expect(res.status, path).toBe(404)
      expect(await res.text()).toContain(NOT_FOUND)
    }
  })
})

describe('/data_sources', () => {
  it('lists the sources as logo cards linking to their pages, under the settings tabs, with no script of its own', async () => {
    const res = await admin.get('/data_sources')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<title>Data Sources | Sightline</title>')
    expect(tabs(html)).toEqual([
      ['Data Sources', '/data_sources'], ['Users', '/users'], ['Groups', '/groups'], ['Alert Destinations', '/destinations'],
      ['Query Snippets', '/query_snippets'], ['General', '/settings/general'],
    ])
    expect(html).toMatch(/<a href="\/data_sources" aria-current="page"/)
    expect(html).toMatch(/<a href="\/data_sources\/new"[^>]*>.*New Data Source<\/a>/)
    expect(html).toContain(`href="/data_sources/${warehouseId}"`)
    expect(html).toMatch(/data-logo="pg"[^]*Warehouse[^]*PostgreSQL/)
    expect(html).toMatch(/data-logo="duckdb"[^]*Demo/) // the ready demo source
    expect(islandsOf(html)).toEqual(SHELL_ISLANDS)
    expect(html).not.toContain('There are no data sources yet.')
  })

  it('shows the settings tabs a user may see, and nothing else', async () => {
    expect(tabs(await (await member.get('/groups')).text())).toEqual([['Users', '/users'], ['Groups', '/groups'], ['Query Snippets', '/query_snippets']])
  })

  it('opens the create dialog on /data_sources/new with every type and its schema, sent along with the page', async () => {
    const html = await (await admin.get('/data_sources/new')).text()
    expect(html).toContain('<title>New Data Source | Sightline</title>')
    expect(html).toContain(`href="/data_sources/${warehouseId}"`) // the same list underneath
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'NewDataSourceDialog'].sort())
    const { types } = islandProps(html, 'NewDataSourceDialog') as { types: { type: string; name: string; configuration_schema: { secret: string[] } }[] }
    const pg = types.find((x) => x.type === 'pg')!
    expect(pg.name).toBe('PostgreSQL')
    expect(pg.configuration_schema.secret).toEqual(['password'])
  })

  it('shows a deletion notice once, after the browser asked for it', async () => {
    admin.cookies.set('sightline_flash', 'data_source_deleted')
    const res = await admin.get('/data_sources')
    expect(await res.text()).toContain('Data source deleted successfully.')
    expect(res.headers.getSetCookie().join()).toMatch(/sightline_flash=;.*Max-Age=0.*Path=\/data_sources/)
    expect(admin.cookies.has('sightline_flash')).toBe(false)
    expect(await (await admin.get('/data_sources')).text()).not.toContain('Data source deleted successfully.')
    admin.cookies.set('sightline_flash', 'something-else')
    expect(await (await admin.get('/data_sources')).text()).not.toContain('Data source deleted successfully.')
    admin.cookies.delete('sightline_flash')
  })
})

describe('/data_sources/{id}', () => {
  it('has the logo, name and type, and the form filled from the source with the password masked', async () => {
    const res = await admin.get(`/data_sources/${warehouseId}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<title>Warehouse | Sightline</title>')
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'DataSourceEditor'].sort())
    const props = islandProps(html, 'DataSourceEditor') as {
      dataSource: { id: number; name: string; type: string; options: Record<string, unknown> }; type: { name: string }
    }
    expect(props.dataSource).toMatchObject({ id: warehouseId, name: 'Warehouse', type: 'pg' })
    expect(props.dataSource.options).toMatchObject({ host: pgOptionsFor(t).host, dbname: pgOptionsFor(t).dbname, password: '--------' })
    expect(props.type.name).toBe('PostgreSQL')
    expect(html).not.toContain(pgOptionsFor(t).password)
    // rendered on the server already: heading, fields with labels, actions
    expect(html).toMatch(/<h1[^>]*>Warehouse<\/h1>/)
    for (const label of ['Name', 'Host', 'Port', 'User', 'Password', 'Database Name', 'SSL Mode']) expect(html).toMatch(new RegExp(`<label for="[^"]+"[^>]*>${label}</label>`))
    for (const action of ['Save', 'Delete', 'Test Connection']) expect(html).toContain(`>${action}</button>`)
    expect(html).toMatch(/type="password"[^>]*value="--------"/)
    expect(html).not.toContain('How to set up') // PostgreSQL has no setup guide to link
  })

  it('links to the engine\'s setup guide for the types that have one, under their own logo', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
    const [metrics] = await t.db.sql<{ id: number }[]>`
      insert into data_sources (org_id, name, type, options) values (${org.id}, 'Metrics', 'prometheus', '{"url": "http://127.0.0.1:9090"}') returning id`
    const html = await (await admin.get(`/data_sources/${metrics.id}`)).text()
    expect(html).toContain('data-logo="prometheus"')
    expect(html).toMatch(/<a href="https:\/\/prometheus\.io\/docs\/[^"]*" target="_blank" rel="noopener noreferrer"[^>]*>How to set up Prometheus for Sightline<\/a>/)
    await t.db.sql`delete from data_sources where id = ${metrics.id}`
  })

  it('says when the type cannot be edited in this installation, and still offers Delete', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
    const [old] = await t.db.sql<{ id: number }[]>`
      insert into data_sources (org_id, name, type, options) values (${org.id}, 'Legacy', 'oracle-9i', '{}') returning id`
    const html = await (await admin.get(`/data_sources/${old.id}`)).text()
    expect(html).toContain('no connector for “oracle-9i”')
    expect(html).toContain('>Delete</button>')
    expect(html).not.toContain('>Save</button>')
    expect(html).toContain('data-logo="database"') // the generic mark
    await t.db.sql`delete from data_sources where id = ${old.id}`
  })
})

describe('/groups', () => {
  it('lists every group for admins, sorted by name, built-in ones labelled, each name leading to its members', async () => {
    const html = await (await admin.get('/groups')).text()
    const names = [...html.matchAll(/<a class="truncate[^"]*" href="([^"]+)">([^<]+)<\/a>(<span[^>]*>built-in<\/span>)?/g)]
      .map((m) => [m[2], m[1], !!m[3]])
    expect(names).toEqual([
      ['admin', `/groups/${groupIds.admin}`, true],
      ['default', `/groups/${groupIds.default}`, true],
      ['Readers', expect.stringMatching(/^\/groups\/\d+$/), false],
    ])
    expect(html).toContain(`aria-label="Members: default"`)
    expect(html).toContain('aria-label="Data Sources: default"')
  })

  it('gives admins New Group and Delete on the groups that are not built-in; others get the list without script', async () => {
    const html = await (await admin.get('/groups')).text()
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'GroupList'].sort())
    expect(html).toContain('New Group')
    expect(html).toContain('aria-label="Delete Readers"')
    expect(html).not.toContain('aria-label="Delete default"')
    expect(html).not.toContain('aria-label="Delete admin"')
    const other = await (await member.get('/groups')).text()
    expect(islandsOf(other)).toEqual(SHELL_ISLANDS)
    expect(other).not.toContain('New Group')
    expect(other).not.toContain('>Delete<')
  })

  it('gives a regular group an editable heading and Delete Group for admins only', async () => {
    const [readers] = await t.db.sql<{ id: number }[]>`select id from groups where name = 'Readers'`
    const html = await (await admin.get(`/groups/${readers.id}`)).text()
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'GroupHeader', 'GroupMembers'].sort())
    expect(islandProps(html, 'GroupHeader')).toEqual({ group: { id: readers.id, name: 'Readers' } })
    expect(html).toContain('Delete Group')
    const builtin = await (await admin.get(`/groups/${groupIds.default}/data_sources`)).text()
    expect(builtin).not.toContain('Delete Group')
    expect(islandsOf(builtin)).not.toContain('GroupHeader')
  })

  it('shows others only their own groups, without the admin-only Data Sources button', async () => {
    const html = await (await member.get('/groups')).text()
    expect(html).toMatch(new RegExp(`href="/groups/${groupIds.default}">default</a>`))
    expect(html).not.toContain('>admin</a>')
    expect(html).not.toContain('/data_sources"')
  })

  it('pages the list, 10 groups at a time unless asked otherwise', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
    for (let i = 1; i <= 11; i++) await t.db.sql`insert into groups (org_id, name, permissions) values (${org.id}, ${`Team ${String(i).padStart(2, '0')}`}, ${[]})`
    const first = await (await admin.get('/groups')).text()
    expect(first).toContain('Page 1 of 2')
    expect(first.match(/<li class="flex flex-wrap/g)).toHaveLength(10)
    expect(first).toContain('href="/groups?page=2"')
    const second = await (await admin.get('/groups?page=2')).text()
    expect(second.match(/<li class="flex flex-wrap/g)).toHaveLength(4)
    expect(second).toContain('>Team 11</a>')
    const big = await (await admin.get('/groups?page_size=20')).text()
    expect(big.match(/<li class="flex flex-wrap/g)).toHaveLength(14)
    expect(big).toContain('Page 1 of 1')
    await t.db.sql`delete from groups where name like 'Team %'`
  })
})

describe('/groups/{id}/data_sources', () => {
  it('lists the sources of the group with their access, and offers the others to add', async () => {
    const html = await (await admin.get(`/groups/${groupIds.default}/data_sources`)).text()
    expect(html).toContain('<title>default · Data Sources | Sightline</title>')
    expect(html).toMatch(/<h1[^>]*>default<\/h1>/)
    expect(html).toContain(`href="/groups/${groupIds.default}"`) // the Members side link
    expect(html).toMatch(new RegExp(`href="/groups/${groupIds.default}/data_sources" aria-current="page"`))
    expect(islandsOf(html)).toEqual([...SHELL_ISLANDS, 'GroupDataSources'].sort())
    const props = islandProps(html, 'GroupDataSources') as { sources: { name: string; view_only: boolean }[]; all: { name: string }[] }
    expect(props.sources.map((s) => [s.name, s.view_only])).toEqual([['Demo', false], ['Warehouse', false]])
    expect(props.all.map((s) => s.name)).toEqual(['Demo', 'Warehouse'])
    expect(html).toContain('Full Access')
    expect(html).toContain('View Only')
    expect(html).toContain('Add Data Sources')
  })

  it('says so when the group has no data sources', async () => {
    const html = await (await admin.get(`/groups/${groupIds.admin}/data_sources`)).text()
    expect(html).toContain('There are no data sources in this group yet.')
  })
})

describe('an organization without data sources', () => {
  it('says "There are no data sources yet." with a link to add one', async () => {
    for (const ds of await (await admin.get('/api/data_sources')).json()) {
      expect((await admin.request('DELETE', `/api/data_sources/${ds.id}`)).status).toBe(204)
    }
    const html = (await (await admin.get('/data_sources')).text()).replaceAll('<!-- -->', '')
    expect(html).toMatch(/There are no data sources yet\. <a[^>]*href="\/data_sources\/new"[^>]*>Click here<\/a> to add one\./)
  })
})
