import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FilesRunJson, ImportRunJson } from '../../src/shared/import-summary.ts'
import { contentFixture, exported, imported, rowVersions, WEBHOOK_SECRET, wipe, type ContentFixture } from './git-files-fixture.ts'

/**
 * Dashboards, queries and alerts as files: GET api/content writes one file per object named by its stable key, and
 * POST api/imports with `files` applies them back by key: a round trip through an emptied store gives the same bytes,
 * an unchanged file writes nothing, a dry run previews, prune archives what no file names, and a bad file is named
 * with its line while the rest goes on.
 */
let f: ContentFixture
let first: Record<string, string>
beforeAll(async () => {
  f = await contentFixture()
  first = await exported(f.admin)
})
afterAll(() => f.t.close())

describe('the export', () => {
  it('writes one file per object, named by a readable key unique per kind', () => {
    expect(Object.keys(first)).toEqual([
      'alerts/revenue-drop.yaml', 'dashboards/ops-board.yaml', 'destinations/ops-hook.yaml', 'groups/admin.yaml', 'groups/analysts.yaml',
      'groups/default.yaml', 'queries/regions.sql', 'queries/revenue-by-month-2.sql', 'queries/revenue-by-month.sql', 'snippets/revjoin.yaml',
    ])
  })

  it('writes a query as its text under a YAML header, its dropdown naming the other query by key', () => {
    const file = first['queries/revenue-by-month.sql']
    expect(file.startsWith([
      '-- ---',
      '-- name: Revenue by month',
      '-- description: Monthly revenue.',
      '-- source: Warehouse',
      '-- tags:',
      '--   - finance',
      '--   - board',
      '-- draft: false',
      '-- schedule:',
      '--   day_of_week: null',
      '--   interval: 3600',
      '--   time: null',
      '--   until: null',
      '-- parameters:',
      '--   - name: region',
      '--     query: regions',
      '--     title: Region',
      '--     type: query',
      '--     value: eu',
      '',
    ].join('\n'))).toBe(true)
    // the text as saved (its own trailing newline kept), then the one newline a file ends with
    expect(file.endsWith('\n-- ---\nselect 1 as n, {{ region }} as region\n-- by month\n\n')).toBe(true)
    expect(first['queries/revenue-by-month.sql']).toMatch(/-- visualizations:\n(--.*\n)*--   - key: monthly-total\n--     name: Monthly total\n--     type: COUNTER\n/)
  })

  it('names sources, queries, visualizations and destinations, never ids, times or secrets', () => {
    const all = Object.values(first).join('\n')
    expect(all).not.toMatch(/\b(id|query_id|user_id|created_at|updated_at|version|queryId|state|last_triggered_at):/)
    expect(all).not.toContain(WEBHOOK_SECRET)
    expect(first['dashboards/ops-board.yaml']).toContain('  - query: revenue-by-month\n    visualization: monthly-total\n    position:\n')
    expect(first['alerts/revenue-drop.yaml']).toContain('query: revenue-by-month\n')
    expect(first['alerts/revenue-drop.yaml']).toContain('destinations:\n  - ops-hook\nsubscribers:\n  - ada@example.com\n')
    expect(first['groups/analysts.yaml']).toMatch(/^name: Analysts\npermissions:\n(  - [a-z_]+\n)+data_sources:\n  - source: Lake\n    view_only: true\n$/)
  })

  it('answers 403 to a member and 401 to a stranger', async () => {
    const { addUser } = await import('../helpers/app.ts')
    const member = await addUser(f.t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' })
    expect((await f.t.app.request('/api/content', { headers: { Authorization: `Key ${member.apiKey}` } })).status).toBe(403)
    expect((await f.t.app.request('/api/content')).status).toBe(401)
    await f.t.db.sql`delete from users where id = ${member.id}`
  })
})

describe('importing the files', () => {
  it('writes nothing at all when nothing changed', async () => {
    const before = await rowVersions(f.t)
    const run = await imported(f.admin, { files: first })
    expect(run.errors).toEqual([])
    expect(run.kinds.queries).toEqual({ created: 0, updated: 0, unchanged: 3, pruned: 0 })
    expect(run.kinds.dashboards.unchanged).toBe(1)
    expect(await rowVersions(f.t)).toBe(before)
  })

  it('previews a change in a dry run, then applies it as a new version', async () => {
    const edited = { ...first, 'queries/regions.sql': first['queries/regions.sql'].replace('-- name: Regions', '-- name: Sales regions').replace("select 'eu'", "select 'us'") }
    const before = await rowVersions(f.t)
    const dry = await imported(f.admin, { files: edited, dry_run: true })
    expect(dry.kinds.queries).toEqual({ created: 0, updated: 1, unchanged: 2, pruned: 0 })
    expect(await rowVersions(f.t)).toBe(before)
    const run = await imported(f.admin, { files: edited })
    expect(run.kinds.queries.updated).toBe(1)
    const [q] = await f.t.db.sql`select name, query, version, key from queries where id = ${f.ids.regions}`
    expect(q).toEqual({ name: 'Sales regions', query: "select 'us' as region", version: 2, key: 'regions' })
    expect((await exported(f.admin))['queries/regions.sql']).toBe(edited['queries/regions.sql'])
    await imported(f.admin, { files: first })
  })

  it('goes through emptied tables and back to the same bytes (export, wipe, import, export)', async () => {
    await wipe(f.t)
    const run = await imported(f.admin, { files: first })
    expect(run.errors).toEqual([])
    expect(run.kinds.queries.created).toBe(3)
    expect(run.notes).toContain('destinations/ops-hook: enter its secrets (password, url) in Sightline.')
    const again = await exported(f.admin)
    expect(again).toEqual(first)
    // and the objects work: the dashboard draws the chart of the query it names
    const [board] = await f.t.db.sql`select id from dashboards where key = 'ops-board'`
    const shown = await (await f.admin.get(`/api/dashboards/${board.id}`)).json()
    expect(shown.widgets.map((w: any) => w.visualization?.query?.name ?? w.text)).toEqual(['Revenue by month', '## Notes\nRead me.'])
  })

  it('reports each bad file by name (and line) and applies the others, leaving the bad ones untouched', async () => {
    const before = await exported(f.admin)
    const files = {
      ...before,
      'dashboards/ops-board.yaml': before['dashboards/ops-board.yaml'].replace('visualization: monthly-total', 'visualization: gone-chart'),
      'queries/regions.sql': before['queries/regions.sql'].replace('-- source: Warehouse', '-- source: Nowhere'),
      'queries/revenue-by-month-2.sql': before['queries/revenue-by-month-2.sql'].replace('-- name: Revenue by month', '-- name: Revenue by month\n--   broken: [yaml'),
      'queries/pie.sql': '-- ---\n-- name: Pie\n-- source: Lake\n-- visualizations:\n--   - name: Pie\n--     type: NO_SUCH_KIND\n-- ---\nselect 1\n',
      'alerts/orphan.yaml': 'name: Orphan\nquery: no-such-query\n',
      'queries/hourly.sql': '-- ---\n-- name: Hourly\n-- schedule:\n--   interval: often\n-- ---\nselect 1\n',
      'snippets/fresh.yaml': 'trigger: fresh\nsnippet: select 1\n',
      'README.md': '# our dashboards\n',
    }
    const run = await imported(f.admin, { files })
    // a file that cannot be read is named with its line
    expect(run.errors).toContainEqual({ file: 'queries/revenue-by-month-2.sql', line: 3, message: expect.stringContaining('malformed YAML') })
    expect(run.errors).toHaveLength(6)
    const byFile = Object.fromEntries(run.errors.map((e: any) => [e.file, e.message]))
    expect(byFile['queries/regions.sql']).toBe('source: there is no data source named "Nowhere"')
    expect(byFile['queries/pie.sql']).toContain('Unknown visualization type: NO_SUCH_KIND')
    expect(byFile['dashboards/ops-board.yaml']).toBe('widgets[0].visualization: query "revenue-by-month" has no visualization "gone-chart"')
    expect(byFile['alerts/orphan.yaml']).toBe('query: there is no query with the key "no-such-query"')
    expect(byFile['queries/hourly.sql']).toMatch(/^schedule: /)
    expect(byFile['snippets/fresh.yaml']).toBeUndefined()
    expect(run.notes[0]).toContain('README.md: not a file of a Sightline export')
    expect(run.kinds.snippets.created).toBe(1)
    // the bad ones are as they were
    const after = await exported(f.admin)
    for (const file of ['dashboards/ops-board.yaml', 'queries/regions.sql', 'queries/revenue-by-month-2.sql']) expect(after[file]).toBe(before[file])
    expect(after['queries/pie.sql']).toBeUndefined()
    expect(after['snippets/fresh.yaml']).toBe('trigger: fresh\nsnippet: select 1\n')
  })

  it('prunes: archives queries and dashboards that have no file, deletes such alerts, keeps those whose file is bad', async () => {
    const files = await exported(f.admin)
    delete files['queries/revenue-by-month-2.sql']
    delete files['dashboards/ops-board.yaml']
    delete files['alerts/revenue-drop.yaml']
    files['queries/regions.sql'] = '-- ---\n-- name: [broken\n-- ---\nselect 1\n'
    const run = await imported(f.admin, { files, prune: true })
    expect(run.kinds.queries.pruned).toBe(1)
    expect(run.kinds.dashboards.pruned).toBe(1)
    expect(run.kinds.alerts.pruned).toBe(1)
    const queries = await f.t.db.sql`select key, is_archived from queries order by key`
    expect(queries).toEqual([
      { key: 'regions', is_archived: false }, { key: 'revenue-by-month', is_archived: false }, { key: 'revenue-by-month-2', is_archived: true },
    ])
    expect((await f.t.db.sql`select is_archived from dashboards where key = 'ops-board'`)[0].is_archived).toBe(true)
    expect(await f.t.db.sql`select id from alerts`).toEqual([])
    // a file brings an archived query back under its key
    const back = await imported(f.admin, { files: { ...files, 'queries/revenue-by-month-2.sql': first['queries/revenue-by-month-2.sql'] } })
    expect(back.kinds.queries.updated).toBe(1)
    expect((await f.t.db.sql`select is_archived from queries where key = 'revenue-by-month-2'`)[0].is_archived).toBe(false)
  })

  it('is listed among past runs when it changed something or could not use a file, never for a dry run or no change', async () => {
    const runs = async () => ((await (await f.admin.get('/api/imports')).json()) as ImportRunJson[]).filter((r): r is FilesRunJson => r.kind === 'files')
    const before = (await runs()).length
    const now = await exported(f.admin)
    await imported(f.admin, { files: now })
    const edited = { ...now, 'snippets/revjoin.yaml': now['snippets/revjoin.yaml'].replace('the revenue join', 'the join of revenue') }
    await imported(f.admin, { files: edited, dry_run: true })
    expect(await runs()).toHaveLength(before)
    await imported(f.admin, { files: { ...edited, 'alerts/orphan.yaml': 'name: Orphan\nquery: no-such-query\n' } })
    const [latest, ...rest] = await runs()
    expect(rest).toHaveLength(before)
    expect(latest).toMatchObject({ kind: 'files', from_url: null, status: 'done', dry_run: false, error: null })
    expect(latest.report.kinds.snippets).toMatchObject({ created: 0, updated: 1, pruned: 0 })
    expect(latest.report.errors).toEqual([{ file: 'alerts/orphan.yaml', line: null, message: 'query: there is no query with the key "no-such-query"' }])
    expect((await (await f.admin.get(`/api/imports/${latest.id}`)).json()).report).toEqual(latest.report)
  })

  it('refuses a member (403) and a stranger (401), and a body that is not files', async () => {
    const { addUser } = await import('../helpers/app.ts')
    const member = await addUser(f.t, { name: 'Mia', email: 'mia@example.com', password: 'mia-password' })
    const post = (headers: Record<string, string>) => f.t.app.request('/api/imports', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ files: first }) })
    expect((await post({ Authorization: `Key ${member.apiKey}` })).status).toBe(403)
    expect((await post({})).status).toBe(401)
    const bad = await f.admin.post('/api/imports', { files: ['queries/x.sql'] })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toContain('files')
  })
})
