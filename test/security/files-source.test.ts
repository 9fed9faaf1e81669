import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_ROOT, localDirectoryOf } from '../../src/data-sources/index.ts'
import { addUser, Client, createTestApp, setUp, signInAs, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'

/*
 * A Files source as a member with query access would attack it: reading the server's files or another source's
 * uploads by path, fetching extensions, or uploading at all; and as an admin's upload names would: paths and markup.
 */
let t: TestApp
let admin: Client
let member: Client
let worker: { stop(): Promise<void> }
let mine: number
let theirs: number

async function upload(client: Client, id: number, name: string, bytes: string) {
  const form = new FormData()
  form.append('file', new Blob([bytes]), name)
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return t.app.request(`/api/data_sources/${id}/files`, { method: 'POST', body: form, headers: { cookie, 'x-csrf-token': client.csrf } })
}

async function failure(client: Client, id: number, query: string): Promise<string> {
  const { result, error } = await outcomeOf(client, await client.post('/api/query_results', { data_source_id: id, query, max_age: 0 }))
  if (result) throw new Error(`the query ran: ${JSON.stringify(result.data.rows)}`)
  return error!
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  await addUser(t, { name: 'Mia Member', email: 'mia@example.com', password: 'member password' })
  member = (await signInAs(t.app, 'mia@example.com', 'member password')).client
  worker = await startWorkerFor(t)
  mine = (await (await admin.post('/api/data_sources', { name: 'Mine', type: 'files', options: {} })).json()).id
  theirs = (await (await admin.post('/api/data_sources', { name: 'Theirs', type: 'files', options: {} })).json()).id
  // the member's groups have "Mine" only
  await t.db.sql`delete from data_source_groups where data_source_id = ${theirs}`
  expect((await upload(admin, mine, 'open.csv', 'a\n1\n')).status).toBe(200)
  expect((await upload(admin, theirs, 'salaries.csv', 'name,salary\nana,100\n')).status).toBe(200)
})
afterAll(async () => {
  await worker.stop()
  await t.close()
})

const OWN_FILES = 'Files sources read only their own files: the tables listed in the schema.'

describe('queries on a Files source', () => {
  it("read no file of the server's", async () => {
    expect(await failure(member, mine, "select * from read_csv('/etc/passwd')")).toBe(OWN_FILES)
    expect(await failure(member, mine, "select * from read_text('/proc/self/environ')")).toBe(OWN_FILES)
  })

  it("read no file of another source's, even by its path on the server", async () => {
    // the other source's copy is on disk once it has been queried by someone allowed to
    expect((await outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: theirs, query: 'select * from salaries', max_age: 0 }))).result).toBeTruthy()
    const [row] = await t.db.sql<{ id: number; created_at: Date }[]>`select id, created_at from data_sources where id = ${theirs}`
    const directory = localDirectoryOf(row)
    const [copy] = fs.readdirSync(directory).filter((f) => f.endsWith('.csv'))
    expect(copy).toBeTruthy()
    const error = await failure(member, mine, `select * from read_csv('${directory}/${copy}')`)
    expect(error).toBe(OWN_FILES)
    expect(error).not.toContain(LOCAL_ROOT)
  })

  it('install or load no extension', async () => {
    expect(await failure(member, mine, 'install httpfs')).toMatch(/extensions is not allowed/)
    expect(await failure(member, mine, "select * from read_csv('https://example.com/x.csv')")).toBe(OWN_FILES)
  })
})

describe('uploads', () => {
  it("are refused to a member before their body is read, however large it says it is", async () => {
    const cookie = [...member.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await t.app.request(`/api/data_sources/${mine}/files`, {
      method: 'POST', body: 'x'.repeat(10), headers: { cookie, 'x-csrf-token': member.csrf, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(5 * 1024 ** 3) },
    })
    expect(res.status).toBe(403)
  })

  it('take no path from the file name, and show a name with markup as text', async () => {
    const dots = await upload(admin, mine, '../../etc/cron.d/x.csv', 'a\n1\n')
    expect(dots.status).toBe(400)
    expect(await dots.json()).toEqual({ message: 'A file name must be 1 to 255 characters, without slashes.' })
    expect((await upload(admin, mine, '<img src=x onerror=alert(1)>.csv', 'a\n1\n')).status).toBe(200)
    const page = await (await admin.get(`/data_sources/${mine}`)).text()
    expect(page).not.toContain('<img src=x')
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;.csv')
  })
})
