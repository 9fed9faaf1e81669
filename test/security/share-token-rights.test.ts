import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, runJobs, signInAs } from '../helpers/app.ts'
import { newQuery, queryFixture, type QueryFixture, type QueryJson } from '../api/queries-fixture.ts'

/**
 * A member publishing what their groups do not let them read: a share token carries the rights of the user who
 * turned sharing on, as they are at each request. A fork leaves out the charts its maker may not see (and says so);
 * a chart someone else put on a member's dashboard stays restricted on the public page and behind every call the
 * token opens; a creator removed from the group, or disabled, takes the token's access with them.
 */
let f: QueryFixture
const HIDDEN_ROW = 'zz_payroll_row_marker'
const HIDDEN_NAME = 'Payroll by person'
const OPEN_ROW = 'zz_open_row_marker'
let hidden: QueryJson
let open: QueryJson
let auditors: number

const json = async (pending: Promise<Response>) => {
  const res = await pending
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json()
}
const anonymous = () => new Client(f.t.app)
const keyed = (token: string, path: string, init: RequestInit = {}) =>
  f.t.app.request(path, { ...init, headers: { authorization: `Key ${token}`, 'content-type': 'application/json', ...init.headers } })
const vizOf = (q: QueryJson) => (q.visualizations as { id: number }[])[0].id

async function ran(client: Client, q: QueryJson) {
  await json(client.post(`/api/queries/${q.id}/results`, { max_age: 0 }))
  await runJobs(f.t)
}

/** A published dashboard of `owner`'s with a text box and a chart of each query; `adder` adds the charts. */
async function boardOf(owner: Client, queries: QueryJson[], adder: Client = owner) {
  const d = await json(owner.post('/api/dashboards', { name: `Board ${Math.random().toString(36).slice(2, 8)}` }))
  await json(owner.post('/api/widgets', { dashboard_id: d.id, visualization_id: null, text: 'Quarterly **notes**', options: {} }))
  for (const q of queries) await json(adder.post('/api/widgets', { dashboard_id: d.id, visualization_id: vizOf(q), options: {} }))
  await json(owner.post(`/api/dashboards/${d.id}`, { is_draft: false }))
  return d as { id: number }
}

/** The hidden query's widget on a dashboard, as an admin sees it. */
async function hiddenWidget(dashboardId: number): Promise<number> {
  const widgets = (await json(f.admin.get(`/api/dashboards/${dashboardId}`))).widgets as { id: number; visualization?: { query: { id: number } } }[]
  return widgets.find((w) => w.visualization?.query.id === hidden.id)!.id
}

/** Every way a token reaches the hidden query and its rows, each with its status. */
async function hiddenReach(token: string, widgetId: number): Promise<Record<string, number>> {
  const latest = (await json(f.admin.get(`/api/queries/${hidden.id}`))).latest_query_data_id as number
  const statuses: Record<string, number> = {}
  const run = await keyed(token, `/api/queries/${hidden.id}/results`, { method: 'POST', body: JSON.stringify({ max_age: 0 }) })
  statuses.run = run.status
  for (const file of ['results', 'results.json', 'results.csv', 'results.tsv', 'results.xlsx', `results/${latest}.json`, `results/${latest}.csv`]) {
    statuses[file] = (await keyed(token, `/api/queries/${hidden.id}/${file}`)).status
  }
  statuses.drawing = (await keyed(token, `/api/widgets/${widgetId}/drawing`)).status
  // an embed opens only with the query's own key or a user's: the share token is no way in either
  statuses.embed = (await anonymous().get(`/embed/query/${hidden.id}/visualization/${vizOf(hidden)}?api_key=${token}`)).status
  return statuses
}

const refusedEverywhere = (statuses: Record<string, number>, allowed = [403, 404]) => {
  for (const [path, status] of Object.entries(statuses)) expect(allowed, `${path} answered ${status}`).toContain(status)
}

/** What a stranger with the token sees: the public shape and the public page. */
async function publicView(token: string) {
  const shape = await anonymous().get(`/api/dashboards/public/${token}`)
  const page = await anonymous().get(`/public/dashboards/${token}`)
  return { shape: shape.status, shapeText: await shape.text(), page: page.status, html: await page.text() }
}

beforeAll(async () => {
  f = await queryFixture()
  hidden = await newQuery(f.admin, { data_source_id: f.shared, name: HIDDEN_NAME, query: `select '${HIDDEN_ROW}' as person` })
  open = await newQuery(f.admin, { data_source_id: f.warehouse, name: 'Open totals', query: `select '${OPEN_ROW}' as total` })
  await ran(f.admin, hidden)
  await ran(f.admin, open)
  auditors = (await json(f.admin.post('/api/groups', { name: 'Auditors' }))).id
  await json(f.admin.post(`/api/groups/${auditors}/data_sources`, { data_source_id: f.shared }))
}, 90_000)
afterAll(() => f?.t.close())

describe('forking a dashboard with a chart the member may not see', () => {
  it('copies the text box and the charts they may see, leaves the other out and says how many', async () => {
    const board = await boardOf(f.admin, [open, hidden])
    const seen = await json(f.bo.get(`/api/dashboards/${board.id}`))
    expect(seen.widgets.filter((w: { restricted?: boolean }) => w.restricted)).toHaveLength(1)

    const fork = await json(f.bo.post(`/api/dashboards/${board.id}/fork`))
    expect(fork.skipped_widgets).toBe(1)
    expect(fork.message).toMatch(/1 widget/)
    expect(fork.widgets).toHaveLength(2)
    expect(fork.widgets.some((w: { restricted?: boolean }) => w.restricted)).toBe(false)
    const copied = await f.t.db.sql`select 1 from widgets w join visualizations z on z.id = w.visualization_id where w.dashboard_id = ${fork.id} and z.query_id = ${hidden.id}`
    expect(copied).toHaveLength(0)

    // sharing the fork publishes nothing of the hidden query
    await json(f.bo.post(`/api/dashboards/${fork.id}`, { is_draft: false }))
    const { api_key: token } = await json(f.bo.post(`/api/dashboards/${fork.id}/share`))
    const view = await publicView(token)
    expect(view.html).toContain(OPEN_ROW)
    for (const text of [view.html, view.shapeText]) {
      expect(text).not.toContain(HIDDEN_ROW)
      expect(text).not.toContain(HIDDEN_NAME)
    }
    refusedEverywhere(await hiddenReach(token, await hiddenWidget(board.id)))
  })

  it('says so once on the copy\'s page after Fork from the dashboard page', async () => {
    const board = await boardOf(f.admin, [open, hidden, hidden])
    const fork = await json(f.bo.post(`/api/dashboards/${board.id}/fork`))
    expect(fork.skipped_widgets).toBe(2)
    const path = `/dashboards/${fork.id}-${fork.slug}`
    // what the header's Fork leaves for the next page (islands/DashboardHeader.tsx)
    f.bo.cookies.set('sightline_flash', `dashboard_fork_skipped.${fork.skipped_widgets}`)
    const page = await (await f.bo.get(path)).text()
    expect(page).toContain('2 widgets were left out of the copy')
    expect(f.bo.cookies.has('sightline_flash')).toBe(false)
    expect(await (await f.bo.get(path)).text()).not.toContain('left out of the copy')
  })

  it('says nothing was left out when every chart was copied', async () => {
    const board = await boardOf(f.admin, [open])
    const fork = await json(f.bo.post(`/api/dashboards/${board.id}/fork`))
    expect(fork.skipped_widgets).toBe(0)
    expect(fork.widgets).toHaveLength(2)
  })
})

describe('a member sharing a dashboard someone else put a hidden chart on', () => {
  let token = ''
  let widget = 0
  beforeAll(async () => {
    const board = await boardOf(f.bo, [open])
    await json(f.admin.post('/api/widgets', { dashboard_id: board.id, visualization_id: vizOf(hidden), options: {} }))
    widget = await hiddenWidget(board.id)
    token = (await json(f.bo.post(`/api/dashboards/${board.id}/share`))).api_key
  })

  it('shows the chart as restricted on the public shape and page, with nothing of its query or rows', async () => {
    const view = await publicView(token)
    expect([view.shape, view.page]).toEqual([200, 200])
    expect(view.html).toContain(OPEN_ROW)
    expect(view.html).toContain('This widget requires access to a data source')
    for (const text of [view.html, view.shapeText]) {
      expect(text).not.toContain(HIDDEN_ROW)
      expect(text).not.toContain(HIDDEN_NAME)
    }
    const shown = JSON.parse(view.shapeText).widgets.find((w: { id: number }) => w.id === widget)
    expect(shown).toMatchObject({ restricted: true })
    expect(shown).not.toHaveProperty('visualization')
  })

  it('neither runs the hidden query, nor reads its stored results in any format, nor draws it', async () => {
    refusedEverywhere(await hiddenReach(token, widget))
    // the chart the member may see still works through the same token
    const run = await keyed(token, `/api/queries/${open.id}/results`, { method: 'POST', body: JSON.stringify({ max_age: -1 }) })
    expect(run.status).toBe(200)
  })
})

describe('the creator’s access, as it is at each request', () => {
  /** A member of Auditors (who have the hidden query's source) sharing a board of theirs with the hidden chart. */
  async function auditorSharing(name: string) {
    const email = `${name.toLowerCase()}@example.com`
    const { id } = await addUser(f.t, { name, email, password: `${name}-password` })
    await json(f.admin.post(`/api/groups/${auditors}/members`, { user_id: id }))
    const client = (await signInAs(f.t.app, email, `${name}-password`)).client
    const board = await boardOf(client, [open, hidden])
    const token = (await json(client.post(`/api/dashboards/${board.id}/share`))).api_key as string
    const widget = await hiddenWidget(board.id)
    // while they may see it, the public page shows its rows and the token reads them
    const view = await publicView(token)
    expect(view.html).toContain(HIDDEN_ROW)
    expect((await keyed(token, `/api/queries/${hidden.id}/results.json`)).status).toBe(200)
    expect((await keyed(token, `/api/widgets/${widget}/drawing`)).status).toBe(200)
    return { id, token, widget }
  }

  it('refuses the next request once the creator leaves the group that has the source', async () => {
    const { id, token, widget } = await auditorSharing('Rae')
    await json(f.admin.request('DELETE', `/api/groups/${auditors}/members/${id}`))
    const view = await publicView(token)
    expect([view.shape, view.page]).toEqual([200, 200])
    expect(view.html).toContain(OPEN_ROW)
    for (const text of [view.html, view.shapeText]) expect(text).not.toContain(HIDDEN_ROW)
    refusedEverywhere(await hiddenReach(token, widget))
  })

  it('answers 404 on the page and every token call once the creator is disabled', async () => {
    const { id, token, widget } = await auditorSharing('Sol')
    await json(f.admin.post(`/api/users/${id}/disable`))
    const view = await publicView(token)
    expect([view.shape, view.page]).toEqual([404, 404])
    expect(view.html).not.toContain(OPEN_ROW)
    const statuses = await hiddenReach(token, widget)
    const { drawing, ...calls } = statuses
    refusedEverywhere(calls, [404])
    // a token that opens nothing authenticates nobody: the drawing answers as for a revoked token
    expect([401, 404]).toContain(drawing)
    expect((await keyed(token, `/api/queries/${open.id}/results.json`)).status).toBe(404)
  })
})
