import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtp } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'
import { browserSuite, jobEnd, warehouseOptions } from './support.ts'

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
})
