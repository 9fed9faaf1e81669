import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORBIDDEN, islandProps, islandsOf, NOT_FOUND, shellIslands } from '../helpers/pages.ts'
import { addUser, Client, createTestApp, pgOptionsFor, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * The alert pages (spec 2 §2) drawn by the server: who gets what (admin, owner, another member, a view-only member,
 * a member who cannot see the query, nobody), the spec's texts, and which islands each page loads.
 */
let t: TestApp
let admin: Client
let owner: Client
let other: Client
let viewOnly: Client
let stranger: Client
let ownerId: number
let queryId: number
let alertId: number

const SHELL = shellIslands()

async function json<T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> {
  const r = await res
  if (r.status >= 300) throw new Error(`${r.status} ${await r.text()}`)
  return r.json() as Promise<T>
}

const page = async (client: Client, path: string) => {
  const res = await client.get(path)
  return { status: res.status, html: await res.text(), res }
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  const user = async (name: string) => {
    const u = await addUser(t, { name, email: `${name.toLowerCase()}@example.com`, password: `${name}-password` })
    return { id: u.id, client: (await signInAs(t.app, `${name.toLowerCase()}@example.com`, `${name}-password`)).client }
  }
  const o = await user('Olga')
  ;[owner, ownerId] = [o.client, o.id]
  other = (await user('Otto')).client
  const v = await user('Vera')
  const s = await user('Sam')
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
  const source = await json<{ id: number }>(admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) }))
  // Vera sees the source view-only, through her only group; Sam is in a group without it
  const perms = ['list_dashboards', 'list_alerts', 'view_query', 'create_query', 'execute_query']
  const [viewers] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Viewers', ${perms}) returning id`
  const [outsiders] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Outsiders', ${perms}) returning id`
  await t.db.sql`delete from user_groups where user_id in (${v.id}, ${s.id})`
  await t.db.sql`insert into user_groups (user_id, group_id) values (${v.id}, ${viewers.id}), (${s.id}, ${outsiders.id})`
  await json(admin.post(`/api/groups/${viewers.id}/data_sources`, { data_source_id: source.id }))
  await json(admin.post(`/api/groups/${viewers.id}/data_sources/${source.id}`, { view_only: true }))
  viewOnly = (await signInAs(t.app, 'vera@example.com', 'Vera-password')).client
  stranger = (await signInAs(t.app, 'sam@example.com', 'Sam-password')).client

  queryId = (await json<{ id: number }>(owner.post('/api/queries', { data_source_id: source.id, name: 'Orders today', query: 'select 150 as orders, 3 as returns' }))).id
  await owner.post(`/api/queries/${queryId}/results`, {})
  await runJobs(t)
  alertId = (await json<{ id: number }>(owner.post('/api/alerts', {
    name: 'Too many orders', query_id: queryId, options: { column: 'orders', op: '>', value: 100, custom_subject: 'Orders: {{QUERY_RESULT_VALUE}}' }, rearm: 7200,
  }))).id
}, 60_000)
afterAll(() => t.close())

describe('who may open the alert pages', () => {
  it.each(['/alerts', '/alerts/new', '/alerts/1', '/alerts/1/edit'])('sends an anonymous visitor of %s to sign in', async (path) => {
    const res = await new Client(t.app).get(path)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent(path)}`)
  })

  it('shows an alert to everyone who may see its query, view-only included, and to nobody else', async () => {
    for (const client of [admin, owner, other, viewOnly]) expect((await page(client, `/alerts/${alertId}`)).status).toBe(200)
    const refused = await page(stranger, `/alerts/${alertId}`)
    expect(refused.status).toBe(403)
    expect(refused.html).toContain(FORBIDDEN)
  })

  it('answers unknown alerts with the 404 page', async () => {
    for (const path of ['/alerts/424242', '/alerts/424242/edit']) {
      const res = await page(admin, path)
      expect(res.status, path).toBe(404)
      expect(res.html).toContain(NOT_FOUND)
    }
  })

  it('refuses the pages to someone without list_alerts', async () => {
    const [org] = await t.db.sql<{ id: number }[]>`select id from organizations`
    const { id } = await addUser(t, { name: 'Nora', email: 'nora@example.com', password: 'Nora-password' })
    const [readers] = await t.db.sql<{ id: number }[]>`insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${['view_query']}) returning id`
    await t.db.sql`delete from user_groups where user_id = ${id}`
    await t.db.sql`insert into user_groups (user_id, group_id) values (${id}, ${readers.id})`
    const nora = (await signInAs(t.app, 'nora@example.com', 'Nora-password')).client
    for (const path of ['/alerts', '/alerts/new', `/alerts/${alertId}`]) expect((await page(nora, path)).status, path).toBe(403)
  })
})

describe('/alerts', () => {
  it('lists the alerts with the bell, name, creator, state and times, and only the shell scripts', async () => {
    const { html } = await page(other, '/alerts')
    expect(html).toContain('<h1')
    for (const title of ['Name', 'Created By', 'State', 'Last Updated At', 'Created At']) expect(html).toContain(title)
    expect(html).toContain(`href="/alerts/${alertId}"`)
    expect(html).toContain('Too many orders')
    expect(html).toContain('Olga')
    expect(html).toContain('data-bell="active"')
    // evaluated when it was created, against the query's latest result (150 > 100)
    expect(html).toContain('data-alert-state="triggered"')
    expect(html).toContain('href="/alerts/new"')
    expect(islandsOf(html)).toEqual(SHELL)
  })

  it("shows 'Get notified on certain events' to someone with no alert to see", async () => {
    const { html } = await page(stranger, '/alerts')
    expect(html).toContain('Get notified on certain events')
    expect(html).not.toContain('Too many orders')
  })

  it('pages at 20, newest first, and shows a muted alert with the muted bell', async () => {
    const ids: number[] = []
    for (let i = 1; i <= 22; i++) {
      ids.push((await json<{ id: number }>(owner.post('/api/alerts', { name: `Bulk ${String(i).padStart(2, '0')}`, query_id: queryId, options: { column: 'returns', op: '<', value: i } }))).id)
    }
    await json(owner.post(`/api/alerts/${ids[21]}/mute`))
    const first = await page(owner, '/alerts')
    const rows = [...first.html.matchAll(/data-alert-id="(\d+)"/g)].map((m) => Number(m[1]))
    expect(rows).toHaveLength(20)
    expect(rows.slice(0, 3)).toEqual([ids[21], ids[20], ids[19]])
    expect(first.html).toMatch(new RegExp(`data-alert-id="${ids[21]}"[^]*?data-bell="muted"`))
    const second = await page(owner, '/alerts?page=2')
    const rest = [...second.html.matchAll(/data-alert-id="(\d+)"/g)].map((m) => Number(m[1]))
    expect(rest).toEqual([ids[1], ids[0], alertId])
    const byName = await page(owner, '/alerts?order=name')
    expect([...byName.html.matchAll(/data-alert-id="(\d+)"/g)].map((m) => Number(m[1]))[0]).toBe(ids[0])
  })
})

describe('/alerts/new', () => {
  it('starts with the query picker and the form island, for every member with list_alerts', async () => {
    for (const client of [owner, viewOnly]) {
      const { status, html } = await page(client, '/alerts/new')
      expect(status).toBe(200)
      expect(html).toContain('Start by selecting the query...')
      expect(html).toContain('Search Queries...')
      expect(html).toMatch(/<button type="submit"[^>]*disabled=""[^>]*>Create Alert<\/button>/)
      expect(islandsOf(html)).toEqual([...SHELL, 'AlertForm'].sort())
      expect(islandProps(html, 'AlertForm')).toEqual({ alert: null })
    }
  })
})

describe('/alerts/{id}', () => {
  it('shows the owner the state, query link, criteria, rule, template and an Edit link', async () => {
    const { html } = await page(owner, `/alerts/${alertId}`)
    expect(html).toContain('Too many orders')
    expect(html).toContain('data-alert-state="unknown"')
    expect(html).toMatch(new RegExp(`<a href="/queries/${queryId}"[^>]*>Orders today</a>`))
    expect(html).toContain('Top row value of orders &gt; 100')
    expect(html).toContain('At most every 2 hour(s), until back to normal')
    expect(html).toContain('Custom template')
    expect(html).toContain(`href="/alerts/${alertId}/edit"`)
    expect(html).toContain('Destinations')
    expect(html).toContain('Subscribe me by e-mail')
    expect(islandsOf(html)).toEqual([...SHELL, 'AlertActions'].sort())
    expect(islandProps(html, 'AlertActions')).toMatchObject({ canEdit: true, alert: { id: alertId, muted: false }, subscriptions: [] })
  })

  it('lets admins edit too, and gives other members a disabled Edit with the reason', async () => {
    expect(islandProps((await page(admin, `/alerts/${alertId}`)).html, 'AlertActions')).toMatchObject({ canEdit: true })
    const { html } = await page(other, `/alerts/${alertId}`)
    expect(islandProps(html, 'AlertActions')).toMatchObject({ canEdit: false })
    expect(html).not.toContain(`href="/alerts/${alertId}/edit"`)
    expect(html).toContain('You do not have sufficient permissions to edit this alert')
  })

  it('shows the muted banner with Unmute while muted', async () => {
    await json(owner.post(`/api/alerts/${alertId}/mute`))
    const { html } = await page(owner, `/alerts/${alertId}`)
    expect(html).toContain('Notifications are muted')
    expect(html).toContain('>Unmute<')
    await owner.request('DELETE', `/api/alerts/${alertId}/mute`)
    expect((await page(owner, `/alerts/${alertId}`)).html).not.toContain('Notifications are muted')
  })

  it('lists subscriptions, the state history and the delivery log', async () => {
    await json(other.post(`/api/alerts/${alertId}/subscriptions`, {}))
    await json(owner.post(`/api/alerts/${alertId}/eval`))
    const { html } = await page(owner, `/alerts/${alertId}`)
    const props = islandProps(html, 'AlertActions') as { subscriptions: { user: { email: string }; destination: unknown }[] }
    expect(props.subscriptions).toEqual([expect.objectContaining({ user: expect.objectContaining({ email: 'otto@example.com' }), destination: null })])
    expect(html).toContain('otto@example.com')
    expect(html).toMatch(/data-alert-history[^]*data-alert-state="unknown"[^]*→[^]*data-alert-state="triggered"/)
    expect(html).toMatch(/data-alert-deliveries[^]*otto@example.com/)
    expect(html).toMatch(/data-delivery-status="(pending|sending|sent|failed)"/)
  })

  it("says 'Saved.' once after a save", async () => {
    owner.cookies.set('sightline_flash', 'alert_saved')
    expect((await page(owner, `/alerts/${alertId}`)).html).toContain('Saved.')
    expect(owner.cookies.has('sightline_flash')).toBe(false)
    expect((await page(owner, `/alerts/${alertId}`)).html).not.toContain('Saved.')
  })
})

describe('/alerts/{id}/edit', () => {
  it('gives the owner and admins the form with the alert', async () => {
    for (const client of [owner, admin]) {
      const { status, html } = await page(client, `/alerts/${alertId}/edit`)
      expect(status).toBe(200)
      expect(islandsOf(html)).toEqual([...SHELL, 'AlertForm'].sort())
      expect(islandProps(html, 'AlertForm')).toMatchObject({
        alert: { id: alertId, name: 'Too many orders', query: { id: queryId, name: 'Orders today' }, rearm: 7200, options: { column: 'orders', op: '>', value: 100 } },
      })
      expect(html).toContain('Save Changes')
      expect(html).toContain(`href="/alerts/${alertId}"`)
    }
  })

  it('shows anyone else the view, with the warning of spec 2 §8', async () => {
    for (const client of [other, viewOnly]) {
      const { status, html } = await page(client, `/alerts/${alertId}/edit`)
      expect(status).toBe(200)
      expect(html).toContain('You cannot edit this alert')
      expect(html).toContain('You do not have sufficient permissions to edit this alert, and have been redirected to the view-only page.')
      expect(islandsOf(html)).toEqual([...SHELL, 'AlertActions'].sort())
    }
    expect((await page(stranger, `/alerts/${alertId}/edit`)).status).toBe(403)
  })
})

describe('the Create menu and navigation', () => {
  it('offer Alerts and New Alert to holders of list_alerts', async () => {
    const { html } = await page(viewOnly, '/alerts')
    expect(html).toMatch(/href="\/alerts"[^>]*>[^]*?Alerts/)
    expect(html).toContain('href="/alerts/new"')
  })
  void ownerId
})
