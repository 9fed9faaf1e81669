import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FAILURE_REPORT_DELAY_MS } from '../../src/schedules/index.ts'
import { addUser, Client, createTestApp, pgOptionsFor, runJobs, setUp, type TestApp } from '../helpers/app.ts'
import { startSmtp } from '../helpers/smtp.ts'

/**
 * The failed-scheduled-query report (reference §5.3, setting send_email_on_failed_scheduled_queries): scheduled runs
 * that fail (here for real: the worker runs SQL that PostgreSQL refuses) are gathered per query owner into one mail,
 * sent through the queue to a real SMTP server started in-process, a while after the first failure.
 */
const BASE = 'https://sightline.example.com/data'
const hourly = { interval: 3600, time: null, day_of_week: null, until: null }

let smtp: Awaited<ReturnType<typeof startSmtp>>
let t: TestApp
let admin: Client
let dsId: number

async function setReports(on: boolean) {
  const res = await admin.post('/api/settings/organization', { send_email_on_failed_scheduled_queries: on })
  expect(res.status).toBe(200)
}

let made = 0
/**
 * A scheduled query whose text fails: it is due at once, so the next run of the jobs runs it and it fails. Each has
 * its own text, so no two share one execution.
 */
async function failingQuery(name: string): Promise<number> {
  const query = `select * from no_such_table_here_${++made}`
  const res = await admin.post('/api/queries', { data_source_id: dsId, query, name, schedule: hourly })
  expect(res.status).toBe(200)
  return (await res.json()).id
}

const kept = async () => t.db.sql<{ user_id: number; query_id: number }[]>`select user_id, query_id from scheduled_query_failures order by id`
const reportJobs = () => t.db.sql<{ run_at: Date; key: string }[]>`
  select run_at, key from graphile_worker.jobs where task_identifier = 'send_failure_report'`

/** The report waits for other failures to join it; bring it forward instead of waiting, then run it and the mail. */
async function sendReportsNow() {
  await t.db.sql`update graphile_worker._private_jobs set run_at = now() where task_id =
    (select id from graphile_worker._private_tasks where identifier = 'send_failure_report')`
  await runJobs(t)
}

beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp({ mail: smtp.mail, baseUrl: BASE })
  admin = await setUp(t.app)
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
})
afterAll(async () => {
  await t?.close()
  await smtp?.close()
})
beforeEach(async () => {
  smtp.received.length = 0
  await t.db.sql`delete from scheduled_query_failures`
  // earlier tests' queries stop refreshing, so each test sees only its own failures
  await t.db.sql`update queries set schedule = null, schedule_next_at = null`
  await t.db.sql`delete from graphile_worker._private_jobs`
})

describe('with send_email_on_failed_scheduled_queries on', () => {
  it('gathers two failing queries of one owner into one mail, sent after the report\'s delay', async () => {
    await setReports(true)
    const evil = await failingQuery('Revenue <script>alert(1)</script>')
    const churn = await failingQuery('Churn & "retention"')
    const before = Date.now()
    await runJobs(t)
    expect((await kept()).map((f) => f.query_id).sort()).toEqual([evil, churn].sort())
    // one report job for the owner, due a while after the first failure; nothing sent yet
    const [job, ...others] = await reportJobs()
    expect(others).toHaveLength(0)
    expect(job.run_at.getTime()).toBeGreaterThanOrEqual(before + FAILURE_REPORT_DELAY_MS - 1000)
    expect(smtp.received).toHaveLength(0)

    await sendReportsNow()
    expect(smtp.received).toHaveLength(1)
    const [mail] = smtp.received
    expect(mail.to).toEqual(['ada@example.com'])
    expect(mail.subject).toBe('Sightline failed to execute 2 of your scheduled queries')
    expect(mail.from).toBe('Sightline <sightline@example.com>')
    for (const id of [evil, churn]) {
      expect(mail.text).toContain(`${BASE}/queries/${id}`)
      expect(mail.html).toContain(`href="${BASE}/queries/${id}"`)
    }
    expect(mail.text).toContain('Revenue <script>alert(1)</script>')
    expect(mail.text).toContain('no_such_table_here')
    expect(mail.text).toMatch(/Failed once since the last report \(1 in a row\), last on \w+ \d+, \d{4} at .+ UTC\./)
    // member-typed names are text in the HTML part, never markup
    expect(mail.html).toContain('Revenue &lt;script&gt;alert(1)&lt;/script&gt;')
    expect(mail.html).toContain('Churn &amp; &quot;retention&quot;')
    expect(mail.html).not.toMatch(/<script/i)
    // each failure is reported once
    expect(await kept()).toHaveLength(0)
    smtp.received.length = 0
    await sendReportsNow()
    expect(smtp.received).toHaveLength(0)
  })

  it('a failure that comes while a report waits joins it without postponing it', async () => {
    await setReports(true)
    await failingQuery('First to fail')
    await runJobs(t)
    const [first] = await reportJobs()
    await failingQuery('Second to fail')
    await runJobs(t)
    const jobs = await reportJobs()
    expect(jobs).toHaveLength(1)
    expect(jobs[0].run_at.getTime()).toBe(first.run_at.getTime())
    await sendReportsNow()
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0].subject).toBe('Sightline failed to execute 2 of your scheduled queries')
  })

  it('sends nothing to a disabled owner, whether disabled before the failure or before the report', async () => {
    await setReports(true)
    const { id: boId } = await addUser(t, { name: 'Bo', email: 'bo@example.com', password: 'bo-password' })
    const mine = await failingQuery('Owned by Bo')
    await t.db.sql`update queries set user_id = ${boId} where id = ${mine}`
    await runJobs(t)
    expect((await kept()).map((f) => f.user_id)).toEqual([boId])
    await t.db.sql`update users set disabled_at = now() where id = ${boId}`
    await sendReportsNow()
    expect(smtp.received).toHaveLength(0)
    expect(await kept()).toHaveLength(0)

    const later = await failingQuery('Owned by Bo, disabled')
    await t.db.sql`update queries set user_id = ${boId} where id = ${later}`
    await runJobs(t)
    expect(await kept()).toHaveLength(0)
    expect(await reportJobs()).toHaveLength(0)
  })
})

describe('with send_email_on_failed_scheduled_queries off', () => {
  it('keeps no failure and sends no mail', async () => {
    await setReports(false)
    const id = await failingQuery('Failing quietly')
    await runJobs(t)
    const [row] = await t.db.sql<{ schedule_failures: number }[]>`select schedule_failures from queries where id = ${id}`
    expect(row.schedule_failures).toBe(1)
    expect(await kept()).toHaveLength(0)
    expect(await reportJobs()).toHaveLength(0)
    await sendReportsNow()
    expect(smtp.received).toHaveLength(0)
  })
})
