import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '../helpers/app.ts'
import { newQuery, queryFixture, refusal, type QueryFixture } from './queries-fixture.ts'

/**
 * Dashboards through the API (spec 2 §7; reference §7.1 and `redash-dashboards-alerts.md` §1.1): create, read by id,
 * by id-slug and by legacy slug, update with versions, archive, fork, lists with search, tags, paging and order,
 * favourites and edit grants, each as the people of the queries fixture.
 */
let f: QueryFixture
beforeAll(async () => {
  f = await queryFixture()
})
afterAll(() => f.t.close())

const json = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const create = (client: Client, name: string) => json(client.post('/api/dashboards', { name }))
const firstVisualization = (q: Record<string, unknown>) => (q.visualizations as { id: number }[])[0].id
const names = (page: { results: { name: string }[] }) => page.results.map((d) => d.name)

describe('creating and reading', () => {
  it('makes a draft of the caller with a slug, no widgets and the owner in four keys', async () => {
    const d = await create(f.bo, '  Sales Overview  ')
    expect(d).toMatchObject({
      name: 'Sales Overview', slug: 'sales-overview', user_id: f.ids.bo, layout: [], dashboard_filters_enabled: false,
      widgets: null, options: {}, is_archived: false, is_draft: true, tags: [], version: 1, can_edit: true, is_favorite: false,
    })
    expect(Object.keys(d.user).sort()).toEqual(['email', 'id', 'name', 'profile_image_url'])
    const read = await json(f.cleo.get(`/api/dashboards/${d.id}`))
    expect(read).toMatchObject({ id: d.id, name: 'Sales Overview', widgets: [], can_edit: false })
    // the address form of spec 2 §2: the id before the first hyphen
    expect((await json(f.cleo.get(`/api/dashboards/${d.id}-anything-else`))).id).toBe(d.id)
  })

  it('refuses a missing or blank name and wrong types with a 400 naming the field', async () => {
    expect(await refusal(f.bo.post('/api/dashboards', {}))).toEqual([400, 'Name: This field is required.'])
    expect(await refusal(f.bo.post('/api/dashboards', { name: '   ' }))).toEqual([400, 'Name: This field is required.'])
    expect(await refusal(f.bo.post('/api/dashboards', { name: 7 }))).toEqual([400, 'name must be text.'])
    expect((await refusal(f.bo.post('/api/dashboards', { name: 'x'.repeat(256) })))[0]).toBe(400)
  })

  it('keeps legacy slugs unique in the organization and finds a dashboard by one with ?legacy', async () => {
    const a = await create(f.bo, 'Weekly KPIs')
    const b = await create(f.cleo, 'weekly kpis!')
    const stored = await f.t.db.sql<{ id: number; slug: string }[]>`select id, slug from dashboards where id in (${a.id}, ${b.id}) order by id`
    expect(stored.map((r) => r.slug)).toEqual(['weekly-kpis', 'weekly-kpis_1'])
    expect((await json(f.bo.get('/api/dashboards/weekly-kpis_1?legacy'))).id).toBe(b.id)
    expect((await f.bo.get('/api/dashboards/no-such-slug?legacy')).status).toBe(404)
  })

  it('answers 404 for unknown ids and addresses that are not ids, and 401 to strangers', async () => {
    expect((await f.bo.get('/api/dashboards/999999')).status).toBe(404)
    expect((await f.bo.get('/api/dashboards/sales')).status).toBe(404)
    expect((await f.bo.get('/api/dashboards/0')).status).toBe(404)
    expect((await f.t.app.request('/api/dashboards')).status).toBe(401)
  })
})

describe('updating', () => {
  it('changes only what is given, ignores a blank name, cleans tags and counts versions', async () => {
    const d = await create(f.bo, 'Finance')
    const saved = await json(f.bo.post(`/api/dashboards/${d.id}`, {
      name: '  ', tags: [' money ', 'money', '', 'q3'], is_draft: false, dashboard_filters_enabled: true,
      options: { globalParamOrder: ['region'], parameters: [{ name: 'region', type: 'text', value: 'EU' }] }, version: 1,
    }))
    expect(saved).toMatchObject({
      name: 'Finance', tags: ['money', 'q3'], is_draft: false, dashboard_filters_enabled: true, version: 2,
      options: { globalParamOrder: ['region'], parameters: [{ name: 'region', type: 'text', value: 'EU' }] }, widgets: [],
    })
  })

  it('refuses a stale version with 409 and the text the browser shows', async () => {
    const d = await create(f.bo, 'Race')
    await json(f.bo.post(`/api/dashboards/${d.id}`, { name: 'First', version: 1 }))
    expect(await refusal(f.bo.post(`/api/dashboards/${d.id}`, { name: 'Second', version: 1 })))
      .toEqual([409, 'It seems like the dashboard has been modified by another user. Please copy/backup your changes and reload this page.'])
    expect((await json(f.bo.get(`/api/dashboards/${d.id}`))).name).toBe('First')
  })

  it('refuses bad bodies with a 400', async () => {
    const d = await create(f.bo, 'Strict')
    expect((await refusal(f.bo.post(`/api/dashboards/${d.id}`, { tags: 'a' })))[0]).toBe(400)
    expect((await refusal(f.bo.post(`/api/dashboards/${d.id}`, { is_draft: 'no' })))[0]).toBe(400)
    expect((await refusal(f.bo.post(`/api/dashboards/${d.id}`, { options: [] })))[0]).toBe(400)
    expect((await refusal(f.bo.post(`/api/dashboards/${d.id}`, { options: { big: 'x'.repeat(100_001) } })))[0]).toBe(400)
    expect((await refusal(f.bo.request('POST', `/api/dashboards/${d.id}`, { headers: { 'content-type': 'application/json' } })))[0]).toBe(400)
  })

  it('lets the owner, an admin and a grantee edit, and nobody else', async () => {
    const d = await create(f.bo, 'Guarded')
    expect(await refusal(f.cleo.post(`/api/dashboards/${d.id}`, { name: 'Mine' })))
      .toEqual([403, "You don't have permission to edit this dashboard."])
    expect((await json(f.admin.post(`/api/dashboards/${d.id}`, { name: 'By admin' }))).can_edit).toBe(true)
    expect((await refusal(f.cleo.post(`/api/dashboards/${d.id}/acl`, { access_type: 'modify', user_id: f.ids.cleo })))[0]).toBe(403)
    const grant = await json(f.bo.post(`/api/dashboards/${d.id}/acl`, { access_type: 'modify', user_id: f.ids.cleo }))
    expect(grant).toMatchObject({ object_id: d.id, object_type: 'dashboards', access_type: 'modify', grantee: f.ids.cleo })
    expect((await json(f.cleo.get(`/api/dashboards/${d.id}/acl/modify`))).response).toBe(true)
    expect((await json(f.cleo.get(`/api/dashboards/${d.id}/acl`))).modify.map((u: { id: number }) => u.id)).toEqual([f.ids.cleo])
    expect((await json(f.cleo.post(`/api/dashboards/${d.id}`, { name: 'By Cleo' }))).can_edit).toBe(true)
    await json(f.bo.request('DELETE', `/api/dashboards/${d.id}/acl`, { json: { access_type: 'modify', user_id: f.ids.cleo } }))
    expect((await refusal(f.cleo.post(`/api/dashboards/${d.id}`, { name: 'Again' })))[0]).toBe(403)
  })
})

describe('archiving and forking', () => {
  it('archives with DELETE, keeps archived ones out of lists, takes only unarchiving until then', async () => {
    const d = await create(f.bo, 'Old numbers')
    expect((await refusal(f.cleo.request('DELETE', `/api/dashboards/${d.id}`)))[0]).toBe(403)
    const archived = await json(f.bo.request('DELETE', `/api/dashboards/${d.id}`))
    expect(archived.is_archived).toBe(true)
    expect(names(await json(f.bo.get('/api/dashboards/my?q=numbers')))).toEqual([])
    expect(await refusal(f.bo.post(`/api/dashboards/${d.id}`, { name: 'New name' })))
      .toEqual([400, 'This dashboard is archived. Unarchive it before changing it.'])
    expect((await json(f.bo.post(`/api/dashboards/${d.id}`, { is_archived: false }))).is_archived).toBe(false)
    expect(names(await json(f.bo.get('/api/dashboards/my?q=numbers')))).toEqual(['Old numbers'])
  })

  it('forks into a draft of the caller named after the original, with its tags and options', async () => {
    const d = await create(f.bo, 'Original')
    await json(f.bo.post(`/api/dashboards/${d.id}`, { tags: ['ops'], is_draft: false, options: { globalParamOrder: ['a'] } }))
    const copy = await json(f.cleo.post(`/api/dashboards/${d.id}/fork`))
    expect(copy).toMatchObject({
      name: `Copy of (#${d.id}) Original`, user_id: f.ids.cleo, is_draft: true, tags: ['ops'], options: { globalParamOrder: ['a'] }, can_edit: true,
    })
    expect(copy.id).not.toBe(d.id)
  })
})

describe('lists', () => {
  let ids: Record<string, number>
  beforeAll(async () => {
    const t = async (client: Client, name: string, changes: Record<string, unknown>) => {
      const d = await create(client, name)
      await json(client.post(`/api/dashboards/${d.id}`, changes))
      return d.id as number
    }
    ids = {
      revenue: await t(f.bo, 'Listing Revenue daily', { is_draft: false, tags: ['listing', 'money'] }),
      churn: await t(f.bo, 'Listing Churn weekly', { is_draft: false, tags: ['listing'] }),
      draft: await t(f.bo, 'Listing Draft of Bo', { tags: ['listing'] }),
      cleo: await t(f.cleo, 'Listing Latency by Cleo', { is_draft: false, tags: ['listing'] }),
    }
  })

  it('lists published dashboards and the caller\'s own drafts, newest first, in the paged shape', async () => {
    const page = await json(f.cleo.get('/api/dashboards?tags=listing'))
    expect(page).toMatchObject({ count: 3, page: 1, page_size: 25 })
    expect(names(page)).toEqual(['Listing Latency by Cleo', 'Listing Churn weekly', 'Listing Revenue daily'])
    expect(page.results[0].widgets).toBeNull()
    expect(names(await json(f.bo.get('/api/dashboards?tags=listing')))).toContain('Listing Draft of Bo')
    expect(names(await json(f.bo.get('/api/dashboards/my?tags=listing&order=name')))).toEqual(['Listing Churn weekly', 'Listing Draft of Bo', 'Listing Revenue daily'])
  })

  it('lists only the dashboards the caller may change with can_edit=true: their own, granted ones, all for an admin', async () => {
    expect(names(await json(f.cleo.get('/api/dashboards?tags=listing&can_edit=true')))).toEqual(['Listing Latency by Cleo'])
    await json(f.bo.post(`/api/dashboards/${ids.churn}/acl`, { access_type: 'modify', user_id: f.ids.cleo }))
    expect(names(await json(f.cleo.get('/api/dashboards?tags=listing&can_edit=true&order=name')))).toEqual(['Listing Churn weekly', 'Listing Latency by Cleo'])
    await json(f.bo.request('DELETE', `/api/dashboards/${ids.churn}/acl`, { json: { access_type: 'modify', user_id: f.ids.cleo } }))
    expect((await json(f.admin.get('/api/dashboards?tags=listing&can_edit=true'))).count).toBe(3)
  })

  it('searches names by every word, reads "or" between words, and pages', async () => {
    expect(names(await json(f.cleo.get('/api/dashboards?q=listing+revenue')))).toEqual(['Listing Revenue daily'])
    expect(names(await json(f.cleo.get('/api/dashboards?q=revenue+or+latency&order=name'))))
      .toEqual(['Listing Latency by Cleo', 'Listing Revenue daily'])
    const second = await json(f.cleo.get('/api/dashboards?tags=listing&page=2&page_size=2&order=name'))
    expect(second).toMatchObject({ count: 3, page: 2, page_size: 2 })
    expect(names(second)).toEqual(['Listing Revenue daily'])
    expect(await refusal(f.cleo.get('/api/dashboards?page=0'))).toEqual([400, expect.any(String)])
  })

  it('stars and unstars, lists favourites, and counts tags', async () => {
    await json(f.cleo.post(`/api/dashboards/${ids.churn}/favorite`))
    const favorites = await json(f.cleo.get('/api/dashboards/favorites'))
    expect(names(favorites)).toEqual(['Listing Churn weekly'])
    expect(favorites.results[0].is_favorite).toBe(true)
    expect((await json(f.cleo.get(`/api/dashboards/${ids.churn}`))).is_favorite).toBe(true)
    await json(f.cleo.request('DELETE', `/api/dashboards/${ids.churn}/favorite`))
    expect(names(await json(f.cleo.get('/api/dashboards/favorites')))).toEqual([])
    const { tags } = await json(f.cleo.get('/api/dashboards/tags'))
    // Bo's draft carries the tag too, but is not listed to Cleo, so it is not counted for her
    expect(tags).toContainEqual({ name: 'listing', count: 3 })
  })

  it('lists the dashboards the caller opened last under recent', async () => {
    await json(f.vi.get(`/api/dashboards/${ids.revenue}`))
    await json(f.vi.get(`/api/dashboards/${ids.cleo}`))
    expect(names({ results: await json(f.vi.get('/api/dashboards/recent')) })).toEqual(['Listing Latency by Cleo', 'Listing Revenue daily'])
  })

  it('keeps a published dashboard whose charts all sit on sources the caller lacks out of their list', async () => {
    // vi has the shared source view-only, so an admin writes the query
    const q = await newQuery(f.admin, { data_source_id: f.shared, query: 'select 1 as n', name: 'Shared numbers' })
    const d = await create(f.admin, 'Listing Shared only')
    await json(f.admin.post('/api/widgets', { dashboard_id: d.id, visualization_id: firstVisualization(q), options: {} }))
    await json(f.admin.post(`/api/dashboards/${d.id}`, { is_draft: false, tags: ['hidden-test'] }))
    expect(names(await json(f.cleo.get('/api/dashboards?tags=hidden-test')))).toEqual([])
    expect(names(await json(f.vi.get('/api/dashboards?tags=hidden-test')))).toEqual(['Listing Shared only'])
    // opening it by address still works: the chart is restricted for cleo
    const seen = await json(f.cleo.get(`/api/dashboards/${d.id}`))
    expect(seen.widgets[0].restricted).toBe(true)
  })
})
