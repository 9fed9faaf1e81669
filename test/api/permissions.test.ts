import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '../../routes/manifest.gen.ts'
import { permissionsFixture, ROLES, type Fixture, type Ids } from './permissions-fixture.ts'
import { EXPECTED } from './permissions-table.ts'

/**
 * Every route of routes/manifest.gen.ts against every kind of caller: the server decides, whatever the browser shows.
 * The expected answers are in permissions-table.ts, one line per route, one status per role (in the order of ROLES):
 * `2xx`/`3xx` for any success or redirect, else the exact refusal. A route missing from the table fails here with the
 * line to add, so whoever adds a route says who may call it.
 */

/** The routes as Hono lists them, mount path joined, each once; deletions last, as they end objects. */
function endpoints(): string[] {
  const seen = new Set<string>()
  for (const [mount, app] of routes) {
    for (const route of app.routes) seen.add(`${route.method} ${(mount === '/' ? '' : mount) + (route.path === '/' && mount !== '/' ? '' : route.path)}`)
  }
  return [...seen].sort((a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')))
}

/** Bodies a call needs to get past its parser to the rights check (`{{role}}` makes names unique per call). */
const BODIES: Record<string, unknown> = {
  'POST /api/alerts': { query_id: '{{query}}', options: { column: 'n', op: '>', value: 1 } },
  'POST /api/alerts/preview': { query_id: '{{query}}', options: { column: 'n', custom_body: 'Value' } },
  'POST /api/alerts/:id': { name: 'Renamed by {{role}}' },
  'POST /api/dashboards': { name: 'By {{role}}' },
  'POST /api/dashboards/:id': { name: 'Renamed by {{role}}' },
  'POST /api/dashboards/:id/acl': { access_type: 'modify', user_id: '{{user}}' },
  'DELETE /api/dashboards/:id/acl': { access_type: 'modify', user_id: '{{user}}' },
  'POST /api/data_sources': { name: 'New {{role}}', type: 'pg', options: { host: 'localhost', dbname: 'x' } },
  'POST /api/data_sources/:id': { name: 'Renamed {{role}}', type: 'pg', options: { host: 'localhost', dbname: 'x' } },
  'POST /api/destinations': { name: 'Hook by {{role}}', type: 'webhook', options: { url: 'http://127.0.0.1:9/x' } },
  'POST /api/destinations/:id': { name: 'Hook renamed by {{role}}', type: 'webhook', options: { url: '--------' } },
  'POST /api/events': [{ action: 'view', object_type: 'page' }],
  'POST /api/imports': { from_url: 'http://127.0.0.1:9', api_key: 'old-instance-key', dry_run: true },
  'POST /api/groups': { name: 'Group by {{role}}' },
  'POST /api/groups/:id': { name: 'Team of {{role}}' },
  'POST /api/groups/:id/members': { user_id: '{{user}}' },
  'POST /api/groups/:id/data_sources': { data_source_id: '{{source}}' },
  'POST /api/groups/:id/data_sources/:dsId': { view_only: false },
  'POST /api/queries': { data_source_id: '{{source}}', query: 'select 2', name: 'By {{role}}' },
  'POST /api/queries/:id': { name: 'Renamed by {{role}}' },
  'POST /api/queries/:id/acl': { access_type: 'modify', user_id: '{{user}}' },
  'DELETE /api/queries/:id/acl': { access_type: 'modify', user_id: '{{user}}' },
  'POST /api/queries/:id{[0-9]+}/results': {},
  'POST /api/query_results': { data_source_id: '{{source}}', query: 'select 3' },
  'POST /api/query_snippets': { trigger: 't{{role}}', snippet: 'select 1' },
  'POST /api/query_snippets/:id': { snippet: 'select 2' },
  'POST /api/settings/organization': { null_value: '∅' },
  'POST /api/subscriptions': { dashboard_id: '{{dashboard}}', schedule: { interval: 86400, time: '08:00' } },
  'POST /api/subscriptions/:id': { paused: false },
  'POST /api/users': { name: 'New {{role}}', email: 'new-{{role}}@example.com' },
  'POST /api/users/:id': { name: 'Renamed' },
  'POST /api/visualizations': { query_id: '{{query}}', type: 'TABLE', name: 'By {{role}}', options: {} },
  'POST /api/visualizations/:id': { name: 'Renamed' },
  'POST /api/widgets': { dashboard_id: '{{dashboard}}', visualization_id: '{{visualization}}', options: {} },
  'POST /api/widgets/:id': { options: {} },
}

/** Calls that end or change what they name get their own object. */
const FRESH: Record<string, keyof Fixture['fresh']> = {
  'DELETE /api/alerts/:id': 'alert',
  // one e-mail subscription per person per alert: each caller subscribes to an alert of its own
  'POST /api/alerts/:id/subscriptions': 'alert',
  'DELETE /api/alerts/:id/subscriptions/:subId': 'subscription',
  'DELETE /api/dashboards/:id': 'dashboard',
  'DELETE /api/subscriptions/:id': 'report',
  'DELETE /api/widgets/:id': 'widget',
  'DELETE /api/data_sources/:id': 'source',
  'DELETE /api/destinations/:id': 'destination',
  'DELETE /api/queries/:id': 'query',
  'POST /api/queries/:id/regenerate_api_key': 'query',
  'DELETE /api/query_snippets/:id': 'snippet',
  'DELETE /api/visualizations/:id': 'visualization',
  'DELETE /api/groups/:id': 'group',
  'DELETE /api/groups/:id/members/:userId': 'member',
  'DELETE /api/groups/:id/data_sources/:dsId': 'groupSource',
}

const ID_OWNERS: [prefix: string, id: keyof Ids][] = [
  ['/api/alerts/', 'alert'], ['/alerts/', 'alert'], ['/api/dashboards/', 'dashboard'], ['/api/widgets/', 'widget'],
  ['/api/data_sources/', 'source'], ['/data_sources/', 'source'], ['/api/destinations/', 'destination'], ['/destinations/', 'destination'], ['/api/databricks/', 'source'], ['/api/groups/', 'group'],
  ['/groups/', 'group'], ['/api/users/', 'user'], ['/users/', 'user'], ['/api/query_snippets/', 'snippet'],
  ['/query_snippets/', 'snippet'], ['/api/visualizations/', 'visualization'], ['/api/jobs/', 'execution'], ['/api/query_results/', 'result'],
  ['/api/subscriptions/', 'report'],
]

function pathFor(pattern: string, ids: Ids): string {
  const value = (name: string): string => {
    if (name === 'id') return String(ids[ID_OWNERS.find(([prefix]) => pattern.startsWith(prefix))?.[1] ?? 'query'])
    if (name === 'userId') return String(ids.user)
    if (name === 'subId') return String(ids.subscription)
    if (name === 'dsId') return String(ids.source)
    if (name === 'vid') return String(ids.visualization)
    if (name === 'jobId') return ids.execution
    if (name === 'dropdownId') return String(ids.query)
    if (name === 'version') return '1'
    if (name === 'address') return `${ids.dashboard}-board`
    if (name === 'slug') return 'board'
    if (name === 'access_type') return 'modify'
    if (name === 'file') return pattern.startsWith('/avatar') ? 'x.svg' : pattern.includes(':file{') ? 'results.json' : `${ids.result}.json`
    return 'public'
  }
  return pattern.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => value(name))
}

const bodyFor = (key: string, role: string, ids: Ids) => {
  const body = BODIES[key]
  if (body === undefined) return undefined
  const json = JSON.stringify(body).replaceAll('{{role}}', role)
  return JSON.parse(json.replace(/"\{\{(\w+)\}\}"/g, (_, name: string) => String(ids[name as keyof Ids])))
}

const statusClass = (status: number) => (status < 300 ? '2xx' : status < 400 ? '3xx' : String(status))

let f: Fixture
beforeAll(async () => {
  f = await permissionsFixture()
}, 60_000)
afterAll(() => f.t.close())

const ALL = endpoints()

describe('the permission table', () => {
  it('lists every route, and no route that is gone', () => {
    expect(ALL.filter((key) => !(key in EXPECTED))).toEqual([])
    expect(Object.keys(EXPECTED).filter((key) => !ALL.includes(key))).toEqual([])
  })

  it.each(ALL)('%s', async (key) => {
    const [method, pattern] = key.split(' ')
    const seen: string[] = []
    for (const role of ROLES) {
      const ids = FRESH[key] ? { ...f.ids, ...(await f.fresh[FRESH[key]]()) } : f.ids
      const res = await f.send(role, method, pathFor(pattern, ids), bodyFor(key, role, ids), ids.queryKey)
      await res.arrayBuffer()
      seen.push(statusClass(res.status))
    }
    expect(`'${key}': '${seen.join(' ')}',`).toBe(`'${key}': '${EXPECTED[key] ?? '(missing: add this line to permissions-table.ts)'}',`)
  }, 60_000)
})

describe("a query's own key", () => {
  // every route the key opens, called for another query of the same owner and source: never more than a refusal
  const opened = ALL.filter((key) => EXPECTED[key]?.split(' ')[ROLES.indexOf('queryKey')] === '2xx' && key.includes('/api/queries/:id'))

  it('opens some query routes', () => {
    expect(opened.length).toBeGreaterThan(3)
  })

  it.each(opened)('reaches no other query by %s', async (key) => {
    const [method, pattern] = key.split(' ')
    const other = { ...f.ids, ...(await f.fresh.query()) }
    const res = await f.send('queryKey', method, pathFor(pattern, other), bodyFor(key, 'queryKey', other), f.ids.queryKey)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})
