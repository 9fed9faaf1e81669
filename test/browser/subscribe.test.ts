import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtp } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'
import { addUser, browserSuite, jobEnd, MEMBER, signInOverHttp, warehouseOptions } from './support.ts'

/**
 * Subscribe… in a real browser, with a worker and a real SMTP server: the dialog makes a weekly report of the
 * dashboard, and Send me a preview mails it to the admin at once, with the PDF attached.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(() => smtp?.close())

const suite = browserSuite({ role: 'all', config: () => ({ mail: smtp.mail }) })
const { api } = suite
let board = ''
let boardId = 0
let times = ''
let timesId = 0
let member: Map<string, string>
let viewer: Map<string, string>

beforeAll(async () => {
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  const q = await api<{ id: number }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Regions', query: "select * from (values ('North', 120), ('South', 80)) as t(region, orders)",
  })
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${q.id}/results`, { max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  const chart = (await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { region: 'x', orders: 'y' } },
  })).id
  const created = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Regional orders' })
  await api('POST', '/api/widgets', { dashboard_id: created.id, visualization_id: chart, options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 } } })
  await api('POST', `/api/dashboards/${created.id}`, { is_draft: false })
  boardId = created.id
  board = `/dashboards/${created.id}-${created.slug}`

  // a dashboard with a parameter of its own (x), mapped from its one widget's query
  const tq = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
    data_source_id: warehouse, name: 'Times ten', query: 'select {{x}} * 10 as answer', options: { parameters: [{ name: 'x', title: 'X', type: 'number', value: 1 }] },
  })
  const valued = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Times board' })
  await api('POST', '/api/widgets', {
    dashboard_id: valued.id, visualization_id: tq.visualizations[0].id,
    options: { position: { col: 0, row: 0, sizeX: 3, sizeY: 8 }, parameterMappings: { x: { name: 'x', type: 'dashboard-level', mapTo: 'x', value: null, title: '' } } },
  })
  await api('POST', `/api/dashboards/${valued.id}`, { is_draft: false })
  timesId = valued.id
  times = `/dashboards/${valued.id}-${valued.slug}`

  // a member (the default group) and a view-only member (a group that reads the warehouse view-only, and edits nothing)
  await addUser(suite.server.db, MEMBER)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  const valId = await addUser(suite.server.db, { name: 'Val Viewer', email: 'val@example.com', password: 'viewer password' })
  const sql = suite.server.db.sql
  const [org] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const [readers] = await sql<{ id: number }[]>`
    insert into groups (org_id, name, permissions) values (${org.id}, 'Readers', ${['view_query', 'view_source', 'execute_query', 'list_users', 'list_dashboards']}) returning id`
  await sql`delete from user_groups where user_id = ${valId}`
  await sql`insert into user_groups (user_id, group_id) values (${valId}, ${readers.id})`
  await api('POST', `/api/groups/${readers.id}/data_sources`, { data_source_id: warehouse })
  await api('POST', `/api/groups/${readers.id}/data_sources/${warehouse}`, { view_only: true })
  viewer = await signInOverHttp(suite.server, 'val@example.com', 'viewer password')
}, 120_000)

describe('Subscribe…', () => {
  it('makes a weekly report in the dialog and sends a preview to oneself', async () => {
    const { page, problems } = await suite.open(board)
    await page.getByRole('button', { name: 'Subscribe…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Subscribe to this report' })
    await dialog.getByLabel('When', { exact: true }).selectOption('weekly')
    await dialog.getByLabel('Thu').check()
    await dialog.getByLabel('PDF').check()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Subscribed. The next report goes out at', { exact: false }).waitFor()
    const [made] = await api<{ id: number; dashboard_id: number; schedule: any; attachments: string[]; recipients: unknown[] }[]>('GET', '/api/subscriptions')
    expect(made).toMatchObject({ dashboard_id: boardId, attachments: ['png', 'pdf'], schedule: { interval: 604800, time: '08:00', days_of_week: ['Monday', 'Thursday'] } })
    await dialog.getByRole('button', { name: 'Send me a preview' }).click()
    await dialog.getByText('Sending now', { exact: false }).waitFor()
    const mail = await eventually(async () => smtp.received.find((m) => m.subject === 'Report: Regional orders'), (m) => m !== undefined, 'the preview mail')
    expect(mail!.to).toEqual(['ada@example.com'])
    expect(mail!.raw).toContain('application/pdf')
    expect(problems).toEqual([])
  }, 120_000)

  it("offers one's own time zone from the profile, and the dashboard's parameters at the page's values, changed before saving", async () => {
    const profile = await suite.open('/users/me')
    await profile.page.getByLabel('Time zone').selectOption('Europe/Paris')
    await profile.page.getByRole('button', { name: 'Save', exact: true }).click()
    await profile.page.getByText('Saved.').waitFor()
    const [ada] = await suite.server.db.sql<{ time_zone: string }[]>`select time_zone from users where email = 'ada@example.com'`
    expect(ada.time_zone).toBe('Europe/Paris')

    const { page, problems } = await suite.open(`${times}?p_x=3`)
    await page.getByRole('button', { name: 'Subscribe…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Subscribe to this report' })
    const zone = dialog.getByLabel('Time zone')
    expect(await zone.inputValue()).toBe('Europe/Paris')
    expect(await zone.locator('option').allTextContents()).toEqual(['Your time zone (Europe/Paris)', "The organization's time zone (UTC)"])
    const x = dialog.getByLabel('X', { exact: true })
    expect(await x.inputValue()).toBe('3')
    await x.fill('2')
    await dialog.getByLabel('When', { exact: true }).selectOption('daily')
    // an admin may send to others: people are offered beside themself
    await expect.poll(() => dialog.getByLabel(MEMBER.name).count()).toBe(1)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Subscribed. The next report goes out at', { exact: false }).waitFor()
    const made = (await api<{ dashboard_id: number; parameters: unknown; schedule: any }[]>('GET', '/api/subscriptions')).find((s) => s.dashboard_id === timesId)
    expect(made).toMatchObject({ parameters: { x: '2' }, schedule: { interval: 86400, time: '08:00', time_zone: 'Europe/Paris' } })
    expect(problems).toEqual([])
  }, 120_000)

  it('offers a member and a view-only member themselves alone on a dashboard they do not edit, in the organization time zone', async () => {
    for (const [who, jar] of [['member', member], ['view-only member', viewer]] as const) {
      const { page, problems } = await suite.open(times, { as: jar })
      await page.getByRole('button', { name: 'Subscribe…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Subscribe to this report' })
      const recipients = dialog.getByRole('group', { name: 'To' })
      expect(await recipients.getByRole('checkbox').count(), who).toBe(1)
      expect(await recipients.getByLabel('Me').isChecked(), who).toBe(true)
      expect(await dialog.getByLabel('Time zone').locator('option').allTextContents(), who).toEqual(["The organization's time zone (UTC)"])
      expect(await dialog.getByLabel('X', { exact: true }).inputValue(), who).toBe('1')
      await dialog.getByRole('button', { name: 'Save' }).click()
      await dialog.getByText('Subscribed. The next report goes out at', { exact: false }).waitFor()
      const mine = await api<{ dashboard_id: number; recipients: unknown[]; parameters: unknown }[]>('GET', '/api/subscriptions', undefined, jar)
      expect(mine.map((s) => [s.dashboard_id, s.parameters]), who).toEqual([[timesId, { x: '1' }]])
      expect(problems, who).toEqual([])
    }
  }, 120_000)
})
