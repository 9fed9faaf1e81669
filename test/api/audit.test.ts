import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, Client, createTestApp, setUp, signInAs, type TestApp } from '../helpers/app.ts'

/**
 * The audit log for admins: who did what, on which object, when and from where, filtered and paged newest first,
 * as JSON or a streamed CSV. Only what Sightline records itself; browser-reported views are not evidence.
 */

let t: TestApp
let admin: Client
let member: Client
let memberId: number
let orgId: number

const page = async (query = '') => {
  const res = await admin.get(`/api/audit${query}`)
  expect(res.status, await res.clone().text()).toBe(200)
  return res.json() as Promise<{ results: { id: number; action: string; object_type: string; object_id: string | null; user: { id: number; email: string } | null; ip: string | null }[]; next: number | null }>
}

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  ;({ id: memberId } = await addUser(t, { name: 'Mo', email: 'mo@example.com', password: 'mo-password' }))
  member = (await signInAs(t.app, 'mo@example.com', 'mo-password')).client
  await signInAs(t.app, 'mo@example.com', 'wrong password')
  ;[{ id: orgId }] = await t.db.sql<{ id: number }[]>`select id from organizations limit 1`
  expect((await member.post('/api/events', [{ action: 'view', object_type: 'page', object_id: 'personal_homepage' }])).status).toBe(200)
  expect((await admin.post(`/api/users/${memberId}`, { name: 'Mo Renamed' })).status).toBe(200)
  expect((await admin.post('/api/settings/organization', { date_format: 'YYYY-MM-DD' })).status).toBe(200)
})
afterAll(() => t.close())

describe('GET /api/audit', () => {
  it('lists sign-ins, failed sign-ins and changes newest first, but never browser-reported events', async () => {
    const { results } = await page()
    const actions = results.map((e) => e.action)
    expect(actions).toEqual(expect.arrayContaining(['login', 'login_failed', 'edit']))
    expect(actions).not.toContain('view')
    expect(actions.indexOf('edit')).toBeLessThan(actions.indexOf('login_failed'))
    const failed = results.find((e) => e.action === 'login_failed')!
    expect(failed.user?.email).toBe('mo@example.com')
  })

  it('filters by person, action, object and time range', async () => {
    const byMember = await page(`?user_id=${memberId}`)
    expect(byMember.results.length).toBeGreaterThan(0)
    expect(byMember.results.every((e) => e.user?.id === memberId)).toBe(true)
    const failures = await page('?action=login_failed')
    expect(failures.results.map((e) => e.action)).toEqual(['login_failed'])
    const settings = await page(`?object_type=settings&object_id=${orgId}`)
    expect(settings.results.map((e) => e.action)).toEqual(['edit'])
    expect((await page('?since=2000-01-01&until=2000-01-02')).results).toEqual([])
    expect((await page(`?since=${new Date(Date.now() - 3_600_000).toISOString()}`)).results.length).toBeGreaterThan(2)
  })

  it('pages through every event once with the cursor', async () => {
    const all = (await page('?page_size=250')).results.map((e) => e.id)
    const seen: number[] = []
    let next: number | null = null
    do {
      const p = await page(`?page_size=2${next ? `&after=${next}` : ''}`)
      seen.push(...p.results.map((e) => e.id))
      next = p.next
    } while (next !== null)
    expect(seen).toEqual(all)
  })

  it('pages correctly through events recorded within the same instant', async () => {
    await t.db.sql`
      insert into events (org_id, user_id, action, object_type, object_id, created_at)
      select ${orgId}, null, 'same_instant', 'test', g::text, '2020-01-01T00:00:00Z' from generate_series(1, 5) g`
    const first = await page('?action=same_instant&page_size=2')
    const second = await page(`?action=same_instant&page_size=2&after=${first.next}`)
    const third = await page(`?action=same_instant&page_size=2&after=${second.next}`)
    expect([...first.results, ...second.results, ...third.results].map((e) => e.object_id)).toEqual(['5', '4', '3', '2', '1'])
    expect(third.next).toBeNull()
  })

  it('refuses bad filters with 400 and a message', async () => {
    for (const query of ['?since=yesterday-ish', '?user_id=mo', '?page_size=0', '?page_size=1000', '?after=x']) {
      const res = await admin.get(`/api/audit${query}`)
      expect(res.status, query).toBe(400)
      expect((await res.json()).message, query).toBeTruthy()
    }
  })

  it('answers members with 403 and anonymous callers with 401', async () => {
    expect((await member.get('/api/audit')).status).toBe(403)
    expect((await member.get('/api/audit.csv')).status).toBe(403)
    expect((await new Client(t.app).get('/api/audit')).status).toBe(401)
  })
})

describe('GET /api/audit.csv', () => {
  it('exports the filtered events as CSV with a header row, formulas defused', async () => {
    await t.db.sql`
      insert into events (org_id, user_id, action, object_type, object_id, additional_properties)
      values (${orgId}, null, 'csv_check', 'test', '=1+1', ${t.db.sql.json({ note: 'a, "quoted" value' })})`
    const res = await admin.get('/api/audit.csv?action=csv_check')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const lines = (await res.text()).trim().split('\r\n')
    expect(lines[0]).toBe('created_at,user_id,user_name,user_email,action,object_type,object_id,ip,details')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(",csv_check,test,'=1+1,")
    expect(lines[1]).toContain('"{""note"":""a, \\""quoted\\"" value""}"')
  })

  it('streams every matching event, across many slices', async () => {
    await t.db.sql`
      insert into events (org_id, action, object_type, object_id)
      select ${orgId}, 'bulk', 'test', g::text from generate_series(1, 4500) g`
    const text = await (await admin.get('/api/audit.csv?action=bulk')).text()
    expect(text.trim().split('\r\n')).toHaveLength(4501)
  })
})

describe('retention', () => {
  it('prunes recorded events past audit_log_retention_days, keeps them all at 0, and never counts browser events', async () => {
    await t.db.sql`
      insert into events (org_id, action, object_type, created_at)
      values (${orgId}, 'old_change', 'test', now() - interval '400 days'), (${orgId}, 'recent_change', 'test', now() - interval '10 days')`
    await t.db.sql`
      insert into events (org_id, action, object_type, created_at, from_browser)
      values (${orgId}, 'old_view', 'page', now() - interval '40 days', true)`
    const { cleanupAuditEvents } = await import('../../worker/tasks/cleanup_audit_events.ts')
    const run = cleanupAuditEvents(t.db.sql)
    const count = async (action: string) => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from events where action = ${action}`)[0].n

    expect((await admin.post('/api/settings/organization', { audit_log_retention_days: 0 })).status).toBe(200)
    await run({}, {} as never)
    expect(await count('old_change')).toBe(1)

    expect((await admin.post('/api/settings/organization', { audit_log_retention_days: 30 })).status).toBe(200)
    await run({}, {} as never)
    expect(await count('old_change')).toBe(0)
    expect(await count('recent_change')).toBe(1)
    expect(await count('old_view')).toBe(1) // the browser events' own retention decides those

    expect((await admin.post('/api/settings/organization', { audit_log_retention_days: -1 })).status).toBe(400)
  })
})

describe('/admin/audit', () => {
  it('draws the filtered events with the filter form filled in and a CSV link with the same filters', async () => {
    const res = await admin.get('/admin/audit?action=login_failed&since=2000-01-01')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Audit Log')
    expect(html).toMatch(/<input[^>]*name="action"[^>]*value="login_failed"/)
    expect(html).toContain('href="/api/audit.csv?action=login_failed&amp;since=2000-01-01"')
    expect(html).toContain('>login_failed<')
    expect(html).not.toContain('>edit<')
  })

  it('links to older events when there are more, and keeps the filters', async () => {
    const html = await (await admin.get('/admin/audit?action=bulk')).text()
    expect(html).toMatch(/href="\/admin\/audit\?action=bulk&amp;after=\d+"/)
  })

  it('gives members the 403 page and bad filters a 400', async () => {
    expect((await member.get('/admin/audit')).status).toBe(403)
    expect((await admin.get('/admin/audit?since=soon')).status).toBe(400)
  })
})
