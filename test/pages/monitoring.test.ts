import { beforeAll, describe, expect, it } from 'vitest'
import { addGroupMember, insertGroup } from '../../src/groups/index.ts'
import { addUser } from '../browser/support.ts'
import { MEMBER, signInOverHttp, warehouseOptions } from '../helpers/web-session.ts'
import { named, pageSuite, region, textOf } from './support.ts'

/**
 * The admin monitoring pages as the server draws them: System Status's blocks, every queue listed with its size, RQ Status's tab taken from
 * the address without script, and who may look at all. The server runs no worker, so queued jobs stay queued; the
 * worker the pages list is one on another machine, known by its heartbeat.
 */
const suite = pageSuite()
const PAGES = ['/admin/status', '/admin/queries/jobs', '/admin/queries/outdated']
const PLAIN_ADMIN = { name: 'Pat Plain-Admin', email: 'pat@example.com', password: 'plain admin password' }
const HOST = 'worker-host-7'
let member: Map<string, string>
let plainAdmin: Map<string, string>

beforeAll(async () => {
  const { server } = suite
  const sql = server.db.sql
  member = await suite.signIn(MEMBER)
  const patId = await addUser(server.db, PLAIN_ADMIN)
  const [org] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const admins = await insertGroup(sql, { orgId: org.id, name: 'Admins', type: 'regular', permissions: ['admin'] })
  await addGroupMember(sql, admins.id, patId)
  plainAdmin = await signInOverHttp(server, PLAIN_ADMIN.email, PLAIN_ADMIN.password)
  const ds = (await suite.api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(server) })).id
  await sql`insert into worker_heartbeats (worker_id, hostname, pid, concurrency) values ('pool-on-7', ${HOST}, 4242, 4)`
  const q = await suite.api<{ id: number }>('POST', '/api/queries', { data_source_id: ds, name: 'Orders waiting', query: "select 'Orders waiting' as waiting" })
  await suite.api('POST', `/api/queries/${q.id}/results`, {})
  await sql`select graphile_worker.add_job('cleanup_results'::text, '{}'::json)`
})

/** The cells of a table row, as text. */
const cells = (row: Element | null) => [...(row?.querySelectorAll('td, th') ?? [])].map((c) => textOf(c))

describe('System Status', () => {
  it('shows General, Manager, Queues and Database Metrics, under the admin tabs', async () => {
    const { status, document } = await suite.get('/admin/status')
    expect(status).toBe(200)
    expect(textOf(document.querySelector('h1'))).toBe('System Status')
    const nav = region(document, 'nav', 'Admin')!
    expect([...nav.querySelectorAll('a')].map((a) => textOf(a))).toEqual(['System Status', 'RQ Status', 'Outdated Queries', 'Audit Log', 'Report subscriptions', 'Import'])
    expect(named(nav, 'a', 'System Status')?.getAttribute('aria-current')).toBe('page')
    const headings = [...document.querySelectorAll('h1, h2, h3, h4')].map((h) => textOf(h))
    for (const block of ['General', 'Manager', 'Queues', 'Database Metrics']) expect(headings, block).toContain(block)
    expect(region(document, 'section', 'Manager')?.textContent).toContain('Outdated Queries Count')
    expect(region(document, 'section', 'Database Metrics')?.textContent).toContain('Query Results Size')
  })

  it('lists the queue of a source with nothing waiting with 0, on both pages, rather than leaving it out', async () => {
    const idle = (await suite.api<{ id: number }>('POST', '/api/data_sources', { name: 'Idle source', type: 'pg', options: warehouseOptions(suite.server) })).id
    const { document } = await suite.get('/admin/status')
    const queues = region(document, 'section', 'Queues')!
    expect(queues.textContent).not.toContain('No data')
    const sizeOf = (name: string) => [...queues.querySelectorAll('dt')].find((dt) => textOf(dt) === name)?.nextElementSibling?.textContent
    expect(sizeOf(`ds:${idle}`)).toBe('0')
    expect(Number(sizeOf('default'))).toBeGreaterThanOrEqual(0)

    const rq = (await suite.get('/admin/queries/jobs')).document
    expect(cells(rq.querySelector(`tr[data-queue="ds:${idle}"]`))).toEqual([`ds:${idle}`, '0', '0'])
    expect(rq.querySelectorAll('tr[data-queue="default"]').length).toBe(1)
  })
})

describe('RQ Status', () => {
  it('works without script: the tab comes from the address', async () => {
    const workers = (await suite.get('/admin/queries/jobs?tab=workers')).document
    const hostCells = (doc: Document, text: string) => [...doc.querySelectorAll('td')].filter((td) => textOf(td) === text)
    expect(hostCells(workers, HOST)).toHaveLength(1)
    const other = named(workers, '[role="tab"]', 'Other Jobs')!
    expect(other.tagName).toBe('A')
    const href = other.getAttribute('href')!
    expect(href).toMatch(/tab=otherJobs/)
    const jobs = await suite.get(href.startsWith('/') ? href : `/admin/queries/jobs${href}`)
    expect(jobs.url).toMatch(/tab=otherJobs/)
    expect(hostCells(jobs.document, 'cleanup_results')).toHaveLength(1)
  })
})

describe('who may look', () => {
  it('gives a member and an admin without super_admin the 403 page, and sends a signed-out visitor to sign in', async () => {
    for (const as of [member, plainAdmin]) {
      for (const pathname of PAGES) {
        const { status, document } = await suite.get(pathname, as)
        expect([pathname, status]).toEqual([pathname, 403])
        expect(document.body.textContent).toContain('It seems like you don’t have permission to see this page.')
      }
    }
    expect(new URL((await suite.get('/admin/queries/jobs', null)).url, suite.server.url).pathname).toBe('/login')
  })
})
