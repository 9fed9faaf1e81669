import { SESSION_COOKIE } from '../../src/http/index.ts'
import { DEFAULT_SIGN_IN_LIMITS } from '../../src/credentials/index.ts'
import { DEFAULT_PERMISSIONS } from '../../src/permissions/index.ts'
import { addGroupMember, insertGroup, removeGroupMember } from '../../src/groups/index.ts'
import { addUser, Client, createTestApp, pgOptionsFor, runJobs, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * One organization with a caller of every kind, and the objects the route table's paths name. Objects a call may
 * destroy (deletions, a query's new key) are made afresh for that call by `fresh`, so each row meets the same world.
 */

/** Least to most privileged: a row's calls run in this order. */
export const ROLES = ['anonymous', 'queryKey', 'userKey', 'viewOnly', 'member', 'owner', 'admin', 'superAdmin'] as const
export type Role = (typeof ROLES)[number]

export interface Ids {
  query: number
  queryKey: string
  visualization: number
  source: number
  snippet: number
  group: number
  user: number
  execution: string
  result: number
  dashboard: number
  widget: number
  alert: number
  subscription: number
  destination: number
  /** A report of the owner's on the dashboard, to themself. */
  report: number
}

export interface Fixture {
  t: TestApp
  ids: Ids
  /** Sends a call as a role: sessions (re-signed in when a call ended them), API keys, or nobody. */
  send(role: Role, method: string, path: string, body: unknown, queryKey: string): Promise<Response>
  /** A new query (with its key), source, snippet, visualization, or a group membership put back, for one call. */
  fresh: Record<'query' | 'source' | 'snippet' | 'visualization' | 'member' | 'groupSource' | 'group' | 'dashboard' | 'widget' | 'destination' | 'alert' | 'subscription' | 'report', () => Promise<Partial<Ids>>>
}

const PASSWORD = 'role-password'

export async function permissionsFixture(): Promise<Fixture> {
  // a run request waits for a worker no test starts: answer with the job at once; the table's failed sign-ins and
  // the roles' sign-ins again after a sign-out all come from one address, which the throttle must not count against
  const signInLimits = { ...DEFAULT_SIGN_IN_LIMITS, quietAddressFailures: 10_000, addressMaxFailures: 10_000, accountFreeFailures: 10_000 }
  const t = await createTestApp({ executionWaitMs: 1, signInLimits })
  const superAdmin = await setUp(t.app)
  const [org] = await t.db.sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const [defaultGroup] = await t.db.sql<{ id: number }[]>`select id from groups where type = 'builtin' and name = 'default'`
  const user = async (name: string) => addUser(t, { name, email: `${name}@example.com`, password: PASSWORD })
  const [member, viewOnly, owner, admin, target] = [await user('member'), await user('viewonly'), await user('owner'), await user('admin'), await user('target')]

  // an admin by a group that gives `admin` alone: not a super admin
  const admins = await insertGroup(t.db.sql, { orgId: org.id, name: 'Admins', type: 'regular', permissions: ['admin'] })
  await addGroupMember(t.db.sql, admins.id, admin.id)
  // a member whose only group has the source view-only
  const viewers = await insertGroup(t.db.sql, { orgId: org.id, name: 'Viewers', type: 'regular', permissions: [...DEFAULT_PERMISSIONS] })
  await removeGroupMember(t.db.sql, defaultGroup.id, viewOnly.id)
  await addGroupMember(t.db.sql, viewers.id, viewOnly.id)
  const team = await insertGroup(t.db.sql, { orgId: org.id, name: 'Team', type: 'regular', permissions: [...DEFAULT_PERMISSIONS] })
  await addGroupMember(t.db.sql, team.id, target.id)

  const ok = async (res: Promise<Response>) => {
    const r = await res
    if (r.status >= 300) throw new Error(`fixture call failed: ${r.status} ${await r.text()}`)
    return r.status === 204 ? {} : r.json()
  }
  const credentials: Partial<Record<Role, string>> = { viewOnly: 'viewonly', member: 'member', owner: 'owner', admin: 'admin' }
  const sessions = new Map<Role, Client>([['superAdmin', superAdmin], ['anonymous', new Client(t.app)]])
  const session = async (role: Role) => {
    const client = sessions.get(role)
    if (client) return client
    const fresh = role === 'superAdmin' ? (await signInAs(t.app, 'ada@example.com', 'correct horse')).client : (await signInAs(t.app, `${credentials[role]}@example.com`, PASSWORD)).client
    sessions.set(role, fresh)
    return fresh
  }
  let sources = 0
  let snippets = 0
  let groups = 0
  const newSource = async () => {
    const ds = await ok((await session('superAdmin')).post('/api/data_sources', { name: `Warehouse ${++sources}`, type: 'pg', options: pgOptionsFor(t) }))
    await ok((await session('superAdmin')).post(`/api/groups/${viewers.id}/data_sources`, { data_source_id: ds.id }))
    await ok((await session('superAdmin')).post(`/api/groups/${viewers.id}/data_sources/${ds.id}`, { view_only: true }))
    return ds.id as number
  }
  const source = await newSource()
  const newQuery = async () => {
    const q = await ok((await session('owner')).post('/api/queries', { data_source_id: source, query: 'select 1 as n', name: 'One' }))
    return { query: q.id as number, queryKey: q.api_key as string, visualization: q.visualizations[0].id as number }
  }
  const query = await newQuery()
  const run = await ok((await session('owner')).post(`/api/queries/${query.query}/results`, {}))
  await runJobs(t)
  const [{ latest_query_data_id: result }] = await t.db.sql<{ latest_query_data_id: number }[]>`select latest_query_data_id from queries where id = ${query.query}`
  const snippet = await ok((await session('owner')).post('/api/query_snippets', { trigger: 'one', snippet: 'select 1' }))
  await ok((await session('superAdmin')).post(`/api/groups/${team.id}/data_sources`, { data_source_id: source }))

  const newDashboard = async () => (await ok((await session('owner')).post('/api/dashboards', { name: 'Board' }))).id as number
  const newWidget = async (dashboard: number) =>
    (await ok((await session('owner')).post('/api/widgets', { dashboard_id: dashboard, visualization_id: query.visualization, options: {} }))).id as number
  const dashboard = await newDashboard()
  const widget = await newWidget(dashboard)
  // a webhook nobody listens at (port 9 of the loopback): Send Test reaches the delivery and fails with a 502
  let destinations = 0
  const newDestination = async () => (await ok((await session('superAdmin')).post('/api/destinations',
    { name: `Hook ${++destinations}`, type: 'webhook', options: { url: 'http://127.0.0.1:9/hook' } }))).id as number
  const destination = await newDestination()
  // an alert of the owner's on the query, with the owner's own e-mail subscription
  const newAlert = async () => (await ok((await session('owner')).post('/api/alerts',
    { name: 'Watch', query_id: query.query, options: { column: 'n', op: '>', value: 0 } }))).id as number
  const newSubscription = async (alert: number) => (await ok((await session('owner')).post(`/api/alerts/${alert}/subscriptions`, {}))).id as number
  const alert = await newAlert()
  const subscription = await newSubscription(alert)
  const newReport = async () => (await ok((await session('owner')).post('/api/subscriptions',
    { dashboard_id: dashboard, schedule: { interval: 86400, time: '08:00' } }))).id as number
  const report = await newReport()

  const ids: Ids = {
    ...query, source, snippet: snippet.id, group: team.id, user: target.id, execution: run.job?.id ?? run.execution?.id ?? '00000000-0000-0000-0000-000000000000', result,
    dashboard, widget, destination, alert, subscription, report,
  }

  const send = async (role: Role, method: string, path: string, body: unknown, queryKey: string) => {
    if (role === 'userKey' || role === 'queryKey') {
      const key = role === 'userKey' ? member.apiKey : queryKey
      const headers: Record<string, string> = { authorization: `Key ${key}` }
      if (body !== undefined) headers['content-type'] = 'application/json'
      return t.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    }
    const client = await session(role)
    const res = await client.request(method, path, path.startsWith('/api/') ? { json: body } : { form: body as Record<string, string> | undefined })
    // a call that signed the role out (sign-out, a changed password) is followed by a new sign-in
    if (role !== 'anonymous' && !client.cookies.has(SESSION_COOKIE)) sessions.delete(role)
    return res
  }
  const fresh: Fixture['fresh'] = {
    query: newQuery,
    source: async () => ({ source: await newSource() }),
    snippet: async () => ({ snippet: (await ok((await session('owner')).post('/api/query_snippets', { trigger: `snippet${++snippets}`, snippet: 'select 1' }))).id }),
    visualization: async () => ({ visualization: (await ok((await session('owner')).post('/api/visualizations', { query_id: ids.query, type: 'TABLE', name: 'Extra', options: {} }))).id }),
    member: async () => (await addGroupMember(t.db.sql, team.id, target.id), {}),
    groupSource: async () => {
      await (await session('superAdmin')).post(`/api/groups/${team.id}/data_sources`, { data_source_id: source })
      return {}
    },
    dashboard: async () => ({ dashboard: await newDashboard() }),
    widget: async () => ({ widget: await newWidget(dashboard) }),
    destination: async () => ({ destination: await newDestination() }),
    alert: async () => ({ alert: await newAlert() }),
    subscription: async () => {
      const fresh = await newAlert()
      return { alert: fresh, subscription: await newSubscription(fresh) }
    },
    report: async () => ({ report: await newReport() }),
    group: async () => ({ group: (await insertGroup(t.db.sql, { orgId: org.id, name: `Group ${++groups}`, type: 'regular', permissions: [...DEFAULT_PERMISSIONS] })).id }),
  }
  return { t, ids, send, fresh }
}
