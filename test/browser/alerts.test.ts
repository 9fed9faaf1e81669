import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtp } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'
import { browserSuite, jobEnd, PHONE, settled, toastWith, warehouseOptions } from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * Alerts in a real browser, with a worker and a real SMTP server (issue 17's flow): a new alert from its form, a
 * subscription by e-mail, the query run past the threshold, the mail, the page showing triggered; muted, the next
 * crossing sends nothing. Then the edit form's Cancel and Save Changes, the template preview, and the list.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(() => smtp?.close())

const suite = browserSuite({ role: 'all', config: () => ({ mail: smtp.mail }) })
const { open, api } = suite
let queryId: number
let alertId: number

interface HistoryRow { old_state: string; new_state: string; skipped: string | null }

/** Set the watched number and run the query to a stored result, as a refresh would. */
async function runWith(orders: number) {
  await suite.server.db.sql`update alert_orders set n = ${orders}`
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${queryId}/results`, { parameters: {}, max_age: 0 })
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
}

const history = () => api<HistoryRow[]>('GET', `/api/alerts/${alertId}/history`)

beforeAll(async () => {
  await suite.server.db.sql`create table alert_orders (n int)`
  await suite.server.db.sql`insert into alert_orders values (50)`
  const warehouse = (await api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  queryId = (await api<{ id: number }>('POST', '/api/queries', { data_source_id: warehouse, name: 'Orders in the last hour', query: 'select n as orders, 0 as returns from alert_orders' })).id
  await api('POST', `/api/queries/${queryId}`, { is_draft: false })
  await runWith(50)
}, 60_000)

describe('an alert from start to mail', () => {
  it('is made from the form, subscribed by e-mail, triggers a mail once, and sends nothing while muted', async () => {
    const { page, problems } = await open('/alerts/new')
    await page.getByText('Start by selecting the query...').waitFor()
    const create = page.getByRole('button', { name: 'Create Alert' })
    expect(await create.isDisabled()).toBe(true)
    await page.getByPlaceholder('Search Queries...').fill('orders in')
    await page.getByRole('button', { name: 'Orders in the last hour' }).click()
    // the result loads: the first column is chosen, the top row's value is shown
    await page.getByLabel('Value column').waitFor()
    expect(await page.getByLabel('Value column').inputValue()).toBe('orders')
    await page.getByText('Top row value is').waitFor()
    await page.getByLabel('Threshold').fill('abc')
    await page.getByText("Value column type doesn't match threshold type.").waitFor()
    // the server refuses it too: the toast of spec 2 §8, with its reason
    await create.click()
    await toastWith(page, 'Failed saving alert.').waitFor()
    expect(page.url()).toMatch(/\/alerts\/new$/)
    await page.getByLabel('Threshold').fill('100')
    expect(await page.locator('[data-alert-form]').getByText("Value column type doesn't match threshold type.").count()).toBe(0)
    expect(await page.getByLabel('Name').getAttribute('placeholder')).toBe('Orders in the last hour: orders > 100')
    expect(await seriousA11yViolations(page)).toEqual([])
    await create.click()
    await page.waitForURL(/\/alerts\/\d+$/)
    alertId = Number(/\/alerts\/(\d+)$/.exec(page.url())![1])
    await page.getByText('Saved.').waitFor()
    await page.getByRole('heading', { level: 1, name: 'Orders in the last hour: orders > 100' }).waitFor()
    expect(await page.locator('[data-alert-criteria]').textContent()).toBe('Top row value of orders > 100')
    expect(await page.locator('[data-alert-rule]').textContent()).toBe('Just once, until back to normal')

    await page.getByRole('button', { name: 'Subscribe me by e-mail' }).click()
    await toastWith(page, 'Subscribed.').waitFor()
    await page.getByText('ada@example.com (you)').waitFor()

    await runWith(150)
    const mail = await eventually(async () => smtp.received, (r) => r.length >= 1, 'the alert mail')
    expect(mail[0].to).toEqual(['ada@example.com'])
    expect(mail[0].subject).toContain('Orders in the last hour: orders > 100')
    await page.reload()
    await page.locator('header [data-alert-state="triggered"]').waitFor()
    await eventually(async () => {
      await page.reload()
      return page.locator('[data-alert-deliveries] [data-delivery-status="sent"]').count()
    }, (n) => n === 1, 'the delivery logged as sent')

    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Mute Notifications' }).click()
    await toastWith(page, 'Notifications have been muted.').waitFor()
    await page.getByText('Notifications are muted').waitFor()

    // back to normal, then past the threshold again: both recorded, nobody told
    await runWith(40)
    await eventually(history, (h) => h[0]?.new_state === 'ok', 'the alert back to ok')
    await runWith(200)
    // the first row is the evaluation when the alert was created (50: ok, nobody told of a first ok)
    const rows = await eventually(history, (h) => h[0]?.new_state === 'triggered' && h.length === 4, 'the second crossing')
    expect(rows.map((h) => h.skipped)).toEqual(['muted', 'muted', null, 'unknown_to_ok'])
    const deliveries = await api<unknown[]>('GET', `/api/alerts/${alertId}/deliveries`)
    expect(deliveries).toHaveLength(1)
    expect(smtp.received).toHaveLength(1)

    await page.reload()
    await page.getByRole('button', { name: 'Unmute' }).click()
    await toastWith(page, 'Notifications have been restored.').waitFor()
    expect(await page.getByText('Notifications are muted').count()).toBe(0)
    // the one refused save, on purpose
    expect(problems).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)'])
  })
})

describe('the edit form', () => {
  it('Cancel leaves the alert as it was; Save Changes keeps the change', async () => {
    const { page } = await open(`/alerts/${alertId}/edit`)
    await page.getByLabel('Threshold').fill('7')
    await page.getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL(new RegExp(`/alerts/${alertId}$`))
    expect(await page.locator('[data-alert-criteria]').textContent()).toBe('Top row value of orders > 100')

    await page.goto(`${suite.server.url}/alerts/${alertId}/edit`)
    await page.getByLabel('Threshold').waitFor()
    await page.getByLabel('Threshold').fill('120')
    await page.getByLabel('When triggered, send notification').selectOption('rate')
    expect(await page.getByLabel('Number').inputValue()).toBe('1')
    expect(await page.getByLabel('Unit').inputValue()).toBe('hour')
    await page.getByLabel('Number').fill('1.5')
    await page.getByText('Use a whole number, 1 or more.').waitFor()
    expect(await page.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true)
    await page.getByLabel('Number').fill('30')
    await page.getByLabel('Unit').selectOption('minute')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await page.waitForURL(new RegExp(`/alerts/${alertId}$`))
    await page.getByText('Saved.').waitFor()
    expect(await page.locator('[data-alert-criteria]').textContent()).toBe('Top row value of orders > 120')
    expect(await page.locator('[data-alert-rule]').textContent()).toBe('At most every 30 minute(s), until back to normal')
    expect((await api<{ rearm: number }>('GET', `/api/alerts/${alertId}`)).rearm).toBe(1800)
  })

  it('previews a custom template with the latest result, and asks before going back to the default', async () => {
    const { page, problems } = await open(`/alerts/${alertId}/edit`)
    await page.getByLabel('Template').selectOption('custom')
    await page.getByLabel('Subject').fill('Orders now: {{QUERY_RESULT_VALUE}}')
    await page.getByLabel('Body').fill('<p>{{ALERT_NAME}} is {{ALERT_STATUS}}</p>')
    await page.getByLabel('Preview', { exact: true }).check()
    await page.locator('[data-preview-subject]', { hasText: 'Orders now: 200' }).waitFor()
    const body = page.frameLocator('[data-preview-body]')
    await body.getByText('Orders in the last hour: orders > 100 is TRIGGERED').waitFor()
    await page.getByLabel('Subject').fill('Orders: {{QUERY_RESULT_VALUE}}!')
    await page.locator('[data-preview-subject]', { hasText: 'Orders: 200!' }).waitFor()

    await page.getByLabel('Template').selectOption('default')
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure?' })
    await confirm.getByText('Switching to default template will discard your custom template.').waitFor()
    await confirm.getByRole('button', { name: 'Discard' }).click()
    await settled(page)
    expect(await page.getByLabel('Subject').count()).toBe(0)
    expect(await page.getByLabel('Template').inputValue()).toBe('default')
    expect(problems).toEqual([])
  })
})

describe('the Destinations panel', () => {
  it('adds destinations from the dialog, shows subscribed ones disabled, and removes them', async () => {
    await api('POST', '/api/destinations', { name: 'Team hook', type: 'webhook', options: { url: 'http://127.0.0.1:9/hook' } })
    const { page, problems } = await open(`/alerts/${alertId}`)
    expect(await seriousA11yViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Add destinations' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Existing Alert Destinations' })
    const save = dialog.getByRole('button', { name: 'Save' })
    await dialog.getByText('Team hook').waitFor()
    expect(await save.isDisabled()).toBe(true)
    await dialog.getByLabel('Team hook').check()
    expect(await save.isDisabled()).toBe(false)
    await save.click()
    await toastWith(page, 'Subscribed.').waitFor()
    const row = page.locator('[data-destinations] li', { hasText: 'Team hook' })
    await row.waitFor()

    await page.getByRole('button', { name: 'Add destinations' }).click()
    await dialog.getByText('Already subscribed').waitFor()
    expect(await dialog.getByLabel('Team hook').isDisabled()).toBe(true)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await row.getByRole('button', { name: 'Remove Team hook' }).click()
    await row.waitFor({ state: 'detached' })
    expect((await api<{ destination?: unknown }[]>('GET', `/api/alerts/${alertId}/subscriptions`)).filter((x) => x.destination)).toEqual([])
    expect(problems).toEqual([])
  })
})

describe('an alert on a query with parameters', () => {
  it('starts from the query’s saved values, and saves the values given with a check interval', async () => {
    const warehouse = (await api<{ id: number }[]>('GET', '/api/data_sources'))[0].id
    const query = await api<{ id: number }>('POST', '/api/queries', {
      data_source_id: warehouse, name: 'Orders of a region', query: "select 150 as orders, '{{ region }}' as region",
      options: { parameters: [{ name: 'region', title: 'Region', type: 'text', value: 'North' }] },
    })
    await api('POST', `/api/queries/${query.id}`, { is_draft: false })
    const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${query.id}/results`, { parameters: { region: 'North' }, max_age: 0 })
    if (run.job) await jobEnd(suite, run.job)
    const { page, problems } = await open('/alerts/new')
    await page.getByPlaceholder('Search Queries...').fill('of a region')
    await page.getByRole('button', { name: 'Orders of a region' }).click()
    await page.getByLabel('Region').waitFor()
    expect(await page.getByLabel('Region').inputValue()).toBe('North')
    expect(await page.getByLabel('Check every').inputValue()).toBe('60')
    await page.getByLabel('Region').fill('South')
    await page.getByRole('button', { name: /Apply Changes/ }).click()
    await page.getByLabel('Name').fill('  South orders  ')
    await page.getByRole('button', { name: 'Create Alert' }).click()
    await page.waitForURL(/\/alerts\/\d+$/)
    const id = Number(/\/alerts\/(\d+)$/.exec(page.url())![1])
    const saved = await api<{ name: string; options: { parameters: unknown }; check_interval: number }>('GET', `/api/alerts/${id}`)
    expect(saved).toMatchObject({ name: 'South orders', options: { parameters: { region: 'South' } }, check_interval: 3600 })
    await page.getByText('Checked every 1 hour(s)').waitFor()
    expect(problems).toEqual([])
  })
})

describe('deleting an alert', () => {
  it('asks first, then goes to the list, which says so', async () => {
    const doomed = await api<{ id: number }>('POST', '/api/alerts', { name: 'Short-lived', query_id: queryId, options: { column: 'orders', op: '<', value: 1 } })
    const { page } = await open(`/alerts/${doomed.id}`)
    await page.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Alert' })
    await confirm.getByText('Are you sure you want to delete this alert?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(/\/alerts$/)
    await page.getByText('Alert deleted successfully.').waitFor()
    expect(await page.locator(`[data-alert-id="${doomed.id}"]`).count()).toBe(0)
  })
})

describe('the list', () => {
  it('shows the alert with its state and opens it', async () => {
    const { page } = await open('/alerts')
    const row = page.locator(`[data-alert-id="${alertId}"]`)
    await row.waitFor()
    expect(await row.locator('[data-alert-state]').getAttribute('data-alert-state')).toBe('triggered')
    expect(await row.locator('[data-bell]').getAttribute('data-bell')).toBe('active')
    await row.getByRole('link').click()
    await page.waitForURL(new RegExp(`/alerts/${alertId}$`))
  })

  it('reads on a phone: the list and an alert page fit the screen (its logs scroll in their cards)', async () => {
    for (const path of ['/alerts', `/alerts/${alertId}`]) {
      const { page } = await open(path, { viewport: PHONE })
      expect(await layoutProblems(page, { scope: 'main *', skip: '[data-alert-history], [data-alert-deliveries]' }), path).toEqual([])
    }
  })
})
