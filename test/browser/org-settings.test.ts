import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatPattern } from '../../src/shared/time.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import { ADMIN, browserSuite, DESKTOP, PHONE, toastWith, waitForIslands, screenshot } from './support.ts'

/**
 * Organization settings as an admin meets them in a real browser: Settings > General, a save that sticks and shows
 * in lists, and the password-login rule (the mail warning and a member kept out are in test/pages/org-settings.test.ts).
 */
const suite = browserSuite()
const { open, api } = suite
const SHOTS = path.join(import.meta.dirname, 'screenshots')

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true })
})

/** When the first admin joined, as the users list writes it with `format`. */
async function adminJoined(format: string) {
  const [row] = await suite.server.db.sql<{ created_at: Date }[]>`select created_at from users where email = ${ADMIN.email}`
  return formatPattern(row.created_at, format)
}

describe('Settings > General', () => {
  it('saves the date format and a switch, keeps them after a reload, and lists show the new format', async () => {
    const { page, problems } = await open('/data_sources')
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'General' }).click()
    await page.waitForURL(suite.server.url + '/settings/general')
    await waitForIslands(page)
    expect(await page.getByRole('heading', { name: 'General', level: 2 }).isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'Authentication', level: 2 }).isVisible()).toBe(true)

    const dateFormat = page.getByLabel('Date Format')
    expect(await dateFormat.inputValue()).toBe('DD/MM/YY')
    const choices = await dateFormat.locator('option').allTextContents()
    expect(choices).toEqual(expect.arrayContaining(['DD/MM/YY', 'MM/DD/YY', 'YYYY-MM-DD']))
    expect(await page.getByLabel('Time Format').locator('option').allTextContents()).toEqual(['HH:mm', 'HH:mm:ss', 'HH:mm:ss.SSS'])

    const save = page.getByRole('button', { name: 'Save' })
    expect(await save.isDisabled()).toBe(true) // nothing to save yet
    await dateFormat.selectOption('YYYY-MM-DD')
    const multiByte = page.getByLabel(/Enable multi-byte/)
    await multiByte.check()
    await save.click()
    await toastWith(page, 'Settings changes saved.').waitFor()
    expect(await save.isDisabled()).toBe(true)

    await page.reload()
    await waitForIslands(page)
    expect(await page.getByLabel('Date Format').inputValue()).toBe('YYYY-MM-DD')
    expect(await page.getByLabel(/Enable multi-byte/).isChecked()).toBe(true)
    expect(await api<{ settings: Record<string, unknown> }>('GET', '/api/settings/organization')).toMatchObject({
      settings: { date_format: 'YYYY-MM-DD', multi_byte_search_enabled: true },
    })

    const { page: users } = await open('/users')
    const row = users.getByRole('row', { name: new RegExp(ADMIN.name) })
    expect((await row.locator('time').first().textContent())?.trim()).toBe(await adminJoined('YYYY-MM-DD'))
    expect(problems).toEqual([])
  })

  it('turns public URLs off and on again with a checkbox, and the dashboard loses its Share button meanwhile', async () => {
    const board = await api<{ id: number; slug: string }>('POST', '/api/dashboards', { name: 'Public board' })
    await api('POST', `/api/dashboards/${board.id}`, { is_draft: false })
    const { page, problems } = await open('/settings/general')
    const disable = page.getByLabel('Disable public URLs')
    expect(await disable.isChecked()).toBe(false)
    const hint = await page.locator(`[id="${await disable.getAttribute('aria-describedby')}"]`).textContent()
    expect(hint).toContain('Shared dashboards stop opening')
    await disable.check()
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Settings changes saved.').waitFor()
    expect((await api<{ settings: Record<string, unknown> }>('GET', '/api/settings/organization')).settings.disable_public_urls).toBe(true)
    await page.reload()
    await waitForIslands(page)
    expect(await page.getByLabel('Disable public URLs').isChecked()).toBe(true)
    const { page: dashboard } = await open(`/dashboards/${board.id}-${board.slug}`)
    expect(await dashboard.getByRole('button', { name: 'Share' }).count()).toBe(0)

    await page.getByLabel('Disable public URLs').uncheck()
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Settings changes saved.').waitFor()
    expect((await api<{ settings: Record<string, unknown> }>('GET', '/api/settings/organization')).settings.disable_public_urls).toBe(false)
    await dashboard.reload()
    await dashboard.getByRole('button', { name: 'Share' }).waitFor()
    expect(problems).toEqual([])
  })

  it('keeps password login on while no other login method is enabled, and says why', async () => {
    const { page, problems } = await open('/settings/general')
    const passwordLogin = page.getByLabel('Password Login Enabled')
    expect(await passwordLogin.isChecked()).toBe(true)
    expect(await passwordLogin.isDisabled()).toBe(true)
    // the reason is the checkbox's description, shown as a tooltip on hover
    const tooltip = page.locator(`[id="${await passwordLogin.getAttribute('aria-describedby')}"][role="tooltip"]`)
    expect(await tooltip.textContent()).toBe('Password login can be disabled only if another login method is enabled.')
    expect(await tooltip.isVisible()).toBe(false)
    await page.getByText('Password Login Enabled', { exact: true }).hover()
    await tooltip.waitFor({ state: 'visible' })
    // switching SAML on does not make a way in that Sightline does not offer
    await page.getByLabel('SAML Enabled').check()
    expect(await page.getByLabel('SAML Entity ID').isVisible()).toBe(true)
    expect(await passwordLogin.isDisabled()).toBe(true)
    // no warning banner: password login is on
    expect(await page.getByText('Password based login is currently disabled').count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('corrects Sightline\'s address: the server\'s reason for a bad one, the normalized origin for a good one', async () => {
    const { page, problems } = await open('/settings/general')
    const address = page.getByLabel('Sightline’s address')
    expect(await address.inputValue()).toBe(suite.server.url)
    await address.fill('https://bi.example.com/sightline')
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Failed saving changes. Sightline’s address must be only the scheme, host and port').waitFor()
    await address.fill('HTTPS://BI.example.com/')
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Settings changes saved.').waitFor()
    expect(await address.inputValue()).toBe('https://bi.example.com')
    expect(await api<{ settings: Record<string, unknown> }>('GET', '/api/settings/organization')).toMatchObject({ settings: { base_url: 'https://bi.example.com' } })
    // back to the address this test server answers on, for the tests after this one
    await api('POST', '/api/settings/organization', { base_url: suite.server.url })
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([])
  })

  it('says what failed when a save is refused', async () => {
    const { page, problems } = await open('/settings/general')
    await page.route('**/api/settings/organization', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Something is off.' }) }))
    await page.getByLabel('Hide the chart toolbar').check()
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Failed saving changes. Something is off.').waitFor()
    // the change stays in the form to try again
    expect(await page.getByLabel('Hide the chart toolbar').isChecked()).toBe(true)
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false)
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([])
  })
})

describe('screens', () => {
  it.each([['desktop', DESKTOP], ['phone', PHONE]] as const)('the page fits the %s screen and passes an accessibility check', async (name, viewport) => {
    const { page, problems } = await open('/settings/general', { viewport })
    await page.getByLabel('SAML Enabled').check()
    await screenshot(page, { path: path.join(SHOTS, `org-settings-${name}.png`), fullPage: true })
    expect([...await layoutProblems(page, { scope: 'main *', skip: 'nav[aria-label="Settings"]' }), ...await seriousA11yViolations(page)]).toEqual([])
    expect(problems).toEqual([])
  })
})
