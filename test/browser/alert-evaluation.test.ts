import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtp } from '../helpers/smtp.ts'
import { eventually } from '../helpers/wait.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import { addUser, browserSuite, jobEnd, MEMBER, PHONE, signInOverHttp, toastWith, warehouseOptions } from './support.ts'

/**
 * An alert as the member who owns it meets it, with a worker and a real SMTP server: who is told is chosen on the
 * create page and the first evaluation comes after; a new subscriber to a triggered alert hears once; parameter values
 * start from the query's saved ones; a changed threshold is evaluated on save; Evaluate now is the owner's.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
})
afterAll(() => smtp?.close())

const suite = browserSuite({ role: 'all', config: () => ({ mail: smtp.mail }) })
const { open, api } = suite
const COLLEAGUE = { name: 'Cora Colleague', email: 'cora@example.com', password: 'colleague password' }
let member: Map<string, string>
let colleague: Map<string, string>
let ordersQuery: number

/** A published query of the member's, run to a stored result. */
async function memberQuery(name: string, text: string, options: Record<string, unknown> = {}, parameters: Record<string, unknown> = {}) {
  const warehouse = (await api<{ id: number }[]>('GET', '/api/data_sources'))[0].id
  const { id } = await api<{ id: number }>('POST', '/api/queries', { data_source_id: warehouse, name, query: text, options }, member)
  await api('POST', `/api/queries/${id}`, { is_draft: false }, member)
  const run = await api<{ job?: { id: string } }>('POST', `/api/queries/${id}/results`, { parameters, max_age: 0 }, member)
  if (run.job) expect(await jobEnd(suite, run.job)).toMatchObject({ status: 3 })
  return id
}

async function pickQuery(page: import('playwright-core').Page, search: string, name: string) {
  await page.getByPlaceholder('Search Queries...').fill(search)
  await page.getByRole('button', { name }).click()
}

const historyNotes = (page: import('playwright-core').Page) => page.locator('[data-alert-history] tbody tr td:last-child').allTextContents()
const deliveryTargets = (page: import('playwright-core').Page) => page.locator('[data-alert-deliveries] tbody tr td:nth-child(2)').allTextContents()

beforeAll(async () => {
  await api('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  await addUser(suite.server.db, MEMBER)
  await addUser(suite.server.db, COLLEAGUE)
  member = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  colleague = await signInOverHttp(suite.server, COLLEAGUE.email, COLLEAGUE.password)
  await api('POST', '/api/destinations', { name: 'Team hook', type: 'webhook', options: { url: 'http://127.0.0.1:9/hook' } })
  ordersQuery = await memberQuery('Orders per hour', 'select 150 as orders')
}, 60_000)

describe('who is told is chosen on the create page', () => {
  it('saves the chosen destination and the member’s e-mail before the first evaluation, which tells both', async () => {
    const { page, problems } = await open('/alerts/new', { as: member })
    await pickQuery(page, 'per hour', 'Orders per hour')
    await page.getByLabel('Threshold').fill('100')
    await page.getByLabel('Team hook').check()
    await page.getByLabel('Subscribe me by e-mail').check()
    await page.getByRole('button', { name: 'Create Alert' }).click()
    await page.waitForURL(/\/alerts\/\d+$/)
    await page.locator('header [data-alert-state="triggered"]').waitFor()
    const panel = page.locator('[data-destinations]')
    await panel.getByText('Team hook').waitFor()
    await panel.getByText('max@example.com (you)').waitFor()
    expect(await historyNotes(page)).toEqual(['Subscribers told'])
    expect((await deliveryTargets(page)).sort()).toEqual(['Team hook (webhook)', 'max@example.com'])
    const mail = await eventually(async () => smtp.received.filter((m) => m.to.includes(MEMBER.email)), (r) => r.length >= 1, 'the alert mail')
    expect(mail[0].subject).toContain('Orders per hour: orders > 100')
    expect(problems).toEqual([])
  })

  it('fits a phone, and reads to assistive technology', async () => {
    const { page } = await open('/alerts/new', { as: member, viewport: PHONE })
    await pickQuery(page, 'per hour', 'Orders per hour')
    await page.getByLabel('Team hook').waitFor()
    expect(await layoutProblems(page, { scope: 'main *' })).toEqual([])
    expect(await seriousA11yViolations(page)).toEqual([])
  })

  it('says nobody subscribed when nobody was; the member subscribing then gets the triggered state once', async () => {
    const { page, problems } = await open('/alerts/new', { as: member })
    await pickQuery(page, 'per hour', 'Orders per hour')
    await page.getByLabel('Name').fill('Busy hour')
    await page.getByLabel('Threshold').fill('120')
    await page.getByRole('button', { name: 'Create Alert' }).click()
    await page.waitForURL(/\/alerts\/\d+$/)
    await page.locator('header [data-alert-state="triggered"]').waitFor()
    expect(await historyNotes(page)).toEqual(['Nobody subscribed'])
    await page.getByText('No notification has been sent yet.').waitFor()

    const before = smtp.received.length
    await page.getByRole('button', { name: 'Subscribe me by e-mail' }).click()
    await toastWith(page, 'Subscribed.').waitFor()
    await page.reload()
    expect(await deliveryTargets(page)).toEqual(['max@example.com'])
    expect(await historyNotes(page)).toEqual(['New subscriber told', 'Nobody subscribed'])
    const mail = await eventually(async () => smtp.received.slice(before), (r) => r.length >= 1, 'the new subscriber’s mail')
    expect(mail[0].subject).toContain('Busy hour')
    expect(problems).toEqual([])
  })
})

describe('parameter values on the alert form', () => {
  it('start with the query’s saved values, with no claim that alerts cannot use them', async () => {
    const parameters = [{ name: 'region', title: 'Region', type: 'text', value: 'North' }]
    await memberQuery('Orders by region', "select 150 as orders, '{{ region }}' as region", { parameters }, { region: 'North' })
    const { page, problems } = await open('/alerts/new', { as: member })
    await pickQuery(page, 'by region', 'Orders by region')
    await page.getByLabel('Region').waitFor()
    expect(await page.getByLabel('Region').inputValue()).toBe('North')
    expect(await page.getByText('Alerts do not work with queries that use parameters.').count()).toBe(0)
    expect(await page.getByLabel('Check every').inputValue()).toBe('60')
    await page.getByRole('button', { name: 'Create Alert' }).click()
    await page.waitForURL(/\/alerts\/\d+$/)
    const id = Number(/\/alerts\/(\d+)$/.exec(page.url())![1])
    expect(await api('GET', `/api/alerts/${id}`, undefined, member)).toMatchObject({ options: { parameters: { region: 'North' } }, check_interval: 3600 })
    expect(problems).toEqual([])
  })
})

describe('a changed threshold and Evaluate now', () => {
  it('a saved threshold is evaluated at once; Evaluate now tells the subscribers again; only for the owner', async () => {
    const alert = await api<{ id: number; state: string }>('POST', '/api/alerts', {
      name: 'Quiet hour', query_id: ordersQuery, options: { column: 'orders', op: '>', value: 200 },
      subscriptions: [{ destination_id: (await api<{ id: number }[]>('GET', '/api/destinations'))[0].id }],
    }, member)
    expect(alert.state).toBe('ok')
    const { page, problems } = await open(`/alerts/${alert.id}/edit`, { as: member })
    await page.getByLabel('Threshold').fill('140')
    await page.getByRole('button', { name: 'Save Changes' }).click()
    await page.waitForURL(new RegExp(`/alerts/${alert.id}$`))
    await page.locator('header [data-alert-state="triggered"]').waitFor()
    expect(await historyNotes(page)).toEqual(['Subscribers told', 'First evaluation: nobody told'])
    expect(await deliveryTargets(page)).toHaveLength(1)

    await page.getByRole('button', { name: 'Evaluate now' }).click()
    await page.getByText('Evaluated.').waitFor()
    expect(await historyNotes(page)).toEqual(['Subscribers told', 'Subscribers told', 'First evaluation: nobody told'])
    expect(await deliveryTargets(page)).toEqual(['Team hook (webhook)', 'Team hook (webhook)'])
    expect(problems).toEqual([])

    // a colleague sees the alert, but has no Evaluate now (and the server refuses them too)
    const other = await open(`/alerts/${alert.id}`, { as: colleague })
    await other.page.locator('header [data-alert-state="triggered"]').waitFor()
    expect(await other.page.getByRole('button', { name: 'Evaluate now' }).count()).toBe(0)
    expect((await suite.call('POST', `/api/alerts/${alert.id}/eval`, undefined, colleague)).status).toBe(403)
  })
})
