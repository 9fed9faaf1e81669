import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contentFixture, exported, imported, type ContentFixture } from '../api/git-files-fixture.ts'

/**
 * What a file of a git export can reach: only the importing organization's own objects, named by key or by name there.
 * Another organization's source, query, destination or user cannot be named into a file, an id written into a file is
 * refused rather than followed (a Query Results reference too), and file names never leave their folder.
 */
let f: ContentFixture
let other: { org: number; source: number; query: number; viz: number; destination: number }
beforeAll(async () => {
  f = await contentFixture()
  const sql = f.t.db.sql
  const [org] = await sql<{ id: number }[]>`insert into organizations (name, slug) values ('Other', 'other') returning id`
  const [user] = await sql<{ id: number }[]>`insert into users (org_id, name, email) values (${org.id}, 'Olga', 'olga@other.example') returning id`
  const [source] = await sql<{ id: number }[]>`insert into data_sources (org_id, name, type, options) values (${org.id}, 'Secret warehouse', 'pg', '{}') returning id`
  const [query] = await sql<{ id: number }[]>`
    insert into queries (org_id, user_id, api_key_hash, query, name, data_source_id) values (${org.id}, ${user.id}, sha256('other-org-key'), 'select secret', 'Secret', ${source.id}) returning id`
  const [viz] = await sql<{ id: number }[]>`insert into visualizations (query_id, type, name) values (${query.id}, 'TABLE', 'Table') returning id`
  const [destination] = await sql<{ id: number }[]>`insert into destinations (org_id, name, type, options) values (${org.id}, 'Their hook', 'webhook', '{}') returning id`
  other = { org: org.id, source: source.id, query: query.id, viz: viz.id, destination: destination.id }
  // the other organization's objects have keys too, the same ones Sightline would give here
  expect((await sql`select key from queries where id = ${query.id}`)[0].key).toBe('secret')
})
afterAll(() => f.t.close())

const q = (header: string, text = 'select 1') => `-- ---\n${header.split('\n').map((l) => `-- ${l}`).join('\n')}\n-- ---\n${text}\n`

describe('an imported file', () => {
  it("cannot name another organization's source, query, destination or user", async () => {
    const files = {
      'queries/steal.sql': q('name: Steal\nsource: Secret warehouse'),
      'queries/dropdown.sql': q('name: Dropdown\nsource: Warehouse\nparameters:\n  - name: p\n    type: query\n    query: secret'),
      'dashboards/peek.yaml': 'name: Peek\nwidgets:\n  - query: secret\n    visualization: table\n',
      'alerts/watch.yaml': 'name: Watch\nquery: secret\n',
      'alerts/tell.yaml': 'name: Tell\nquery: regions\ndestinations:\n  - their-hook\nsubscribers:\n  - olga@other.example\n',
      'alerts/tell-olga.yaml': 'name: Tell Olga\nquery: regions\nsubscribers:\n  - olga@other.example\n',
      'groups/reach.yaml': 'name: Reach\ndata_sources:\n  - source: Secret warehouse\n',
    }
    const run = await imported(f.admin, { files })
    const byFile = Object.fromEntries(run.errors.map((e: { file: string; message: string }) => [e.file, e.message]))
    expect(byFile).toEqual({
      'queries/steal.sql': 'source: there is no data source named "Secret warehouse"',
      'queries/dropdown.sql': 'parameters[0].query: there is no query with the key "secret"',
      'dashboards/peek.yaml': 'widgets[0].query: there is no query with the key "secret"',
      'alerts/watch.yaml': 'query: there is no query with the key "secret"',
      'alerts/tell.yaml': 'destinations: there is no destination with the key "their-hook"',
      'alerts/tell-olga.yaml': 'subscribers: no user here has the address olga@other.example',
      'groups/reach.yaml': 'data_sources: there is no data source named "Secret warehouse"',
    })
    expect(await f.t.db.sql`select id from queries where key in ('steal', 'dropdown')`).toEqual([])
    expect(await f.t.db.sql`select id from data_source_groups where data_source_id = ${other.source}`.catch(() => [])).toEqual([])
    const [{ n }] = await f.t.db.sql`select count(*)::int as n from alerts where org_id <> ${other.org} and key in ('watch', 'tell')`
    expect(n).toBe(0)
  })

  it('refuses ids written into a file instead of following them', async () => {
    const files = {
      'queries/by-id.sql': q(`name: By id\nsource: Warehouse\nparameters:\n  - name: p\n    type: query\n    queryId: ${other.query}`),
      'alerts/by-id.yaml': `name: By id\nquery: ${other.query}\n`,
      'dashboards/by-id.yaml': `name: By id\nwidgets:\n  - query: regions\n    visualization: ${other.viz}\n`,
    }
    const run = await imported(f.admin, { files })
    const byFile = Object.fromEntries(run.errors.map((e: { file: string; message: string }) => [e.file, e.message]))
    expect(byFile['queries/by-id.sql']).toBe('parameters[0].queryId: name the query by its key ("query: <key>"), not by id')
    expect(byFile['alerts/by-id.yaml']).toBe(`query: there is no query with the key "${other.query}"`)
    expect(byFile['dashboards/by-id.yaml']).toBe(`widgets[0].visualization: query "regions" has no visualization "${other.viz}"`)
    expect((await f.t.db.sql`select count(*)::int as n from alerts where query_id = ${other.query}`)[0].n).toBe(0)
    expect((await f.t.db.sql`select count(*)::int as n from widgets where visualization_id = ${other.viz}`)[0].n).toBe(0)
  })

  it("cannot reach another organization's query from a Query Results query, by id or by key, nor learn its key", async () => {
    const results = (await (await f.admin.post('/api/data_sources', { name: 'Query Results', type: 'results', options: {} })).json()).id
    const files = {
      'queries/peek-by-id.sql': q('name: Peek by id\nsource: Query Results', `select * from query_${other.query}`),
      'queries/peek-by-key.sql': q('name: Peek by key\nsource: Query Results', 'select *\nfrom "cached_query_{secret}"'),
    }
    const run = await imported(f.admin, { files })
    expect(run.errors).toEqual([
      { file: 'queries/peek-by-id.sql', line: 5, message: `query_${other.query}: name the query by its key (query_{<key>}), not by id` },
      { file: 'queries/peek-by-key.sql', line: 6, message: 'cached_query_{secret}: there is no query with the key "secret"' },
    ])
    expect(await f.t.db.sql`select id from queries where key like 'peek-%'`).toEqual([])
    // a query here that names theirs by id is exported with the id, never with their key, and goes no further
    const saved = await f.admin.post('/api/queries', { data_source_id: results, name: 'Theirs', query: `select * from query_${other.query}` })
    expect(saved.status).toBe(200)
    const file = (await exported(f.admin))['queries/theirs.sql']
    expect(file).toContain(`select * from query_${other.query}\n`)
    expect(file).not.toContain('{secret}')
    const back = await imported(f.admin, { files: { 'queries/theirs.sql': file.replace('Theirs', 'Theirs again') } })
    expect(back.errors).toEqual([{ file: 'queries/theirs.sql', line: expect.any(Number), message: expect.stringContaining('not by id') }])
    await f.t.db.sql`delete from queries where id = ${(await saved.json()).id}`
  })

  it('never takes a secret from a file: a destination that holds one is refused, the stored one kept', async () => {
    const [hook] = await f.t.db.sql`select id, secrets from destinations where key = 'ops-hook'`
    const run = await imported(f.admin, { files: { 'destinations/ops-hook.yaml': 'name: Ops hook\ntype: webhook\noptions:\n  url: http://attacker.example/\n' } })
    expect(run.errors).toEqual([{ file: 'destinations/ops-hook.yaml', line: null, message: 'options.url: secrets are never read from files; enter it in Sightline' }])
    expect((await f.t.db.sql`select secrets from destinations where id = ${hook.id}`)[0].secrets).toBe(hook.secrets)
  })

  it('keeps file names in their folder and the other organization out of the export', async () => {
    const run = await imported(f.admin, { files: { '../../etc/passwd.yaml': 'name: x\n', 'queries/../groups/x.yaml': 'name: x\n', 'groups/Bad Key.yaml': 'name: x\n' } })
    expect(run.notes.filter((n: string) => n.includes('not a file of a Sightline export'))).toHaveLength(2)
    expect(run.errors).toEqual([{ file: 'groups/Bad Key.yaml', line: null, message: expect.stringContaining('not a key') }])
    const all = Object.values(await exported(f.admin)).join('\n')
    for (const theirs of ['Secret warehouse', 'select secret', 'Their hook', 'olga@other.example']) expect(all).not.toContain(theirs)
  })
})
