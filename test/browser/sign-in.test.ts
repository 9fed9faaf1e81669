import type { Page } from 'playwright-core'
import { beforeEach, describe, expect, it } from 'vitest'
import { ADMIN, browserSuite, fillLogin } from './support.ts'
import { seriousA11yViolations } from './page-checks.ts'

/** First run, signing in and out, and the script-free pages, as a person in a real browser meets them. */
const suite = browserSuite({ organization: false })
let page: Page
let scripts: string[]
let problems: string[]

beforeEach(async () => {
  ;({ page, problems } = await suite.newPage({ as: null }))
  scripts = []
  page.on('request', (req) => {
    if (req.resourceType() === 'script' || /\.m?js(\?|$)/.test(req.url())) scripts.push(req.url())
  })
})

/** A page that must work without any script: none in its markup, none fetched. */
async function expectNoScript() {
  expect(await page.locator('script[type="module"]').count()).toBe(0)
  expect(await page.locator('script[src]').count()).toBe(0)
  expect(scripts).toEqual([])
}

describe('first run', () => {
  it('sends every address to the setup form, which loads no script and passes an accessibility check', async () => {
    await page.goto(suite.server.url + '/')
    expect(new URL(page.url()).pathname).toBe('/setup')
    await expect(page.getByRole('heading', { name: 'Welcome to Sightline' }).isVisible()).resolves.toBe(true)
    await expectNoScript()
    expect(await seriousA11yViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await seriousA11yViolations(page), 'dark').toEqual([])
  })

  it('shows what is wrong with each field and keeps what was typed', async () => {
    await page.goto(suite.server.url + '/setup')
    await page.getByLabel('Name', { exact: true }).fill(ADMIN.name)
    await page.getByLabel('Email Address').fill('not-an-email')
    await page.getByLabel('Password', { exact: true }).fill('123')
    await page.getByRole('button', { name: 'Setup' }).click()
    await page.waitForLoadState()
    expect(new URL(page.url()).pathname).toBe('/setup')
    const email = page.getByLabel('Email Address')
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('#field-email-error').textContent()).toBe('This field must be a valid email.')
    expect(await page.locator('#field-password-error').textContent()).toBe('This field is too short.')
    expect(await page.locator('#field-org_name-error').textContent()).toBe('This field is required.')
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(ADMIN.name)
    expect(await email.inputValue()).toBe('not-an-email')
  })

  it('creates the admin through the form and lands signed in on the home page with onboarding', async () => {
    await page.goto(suite.server.url + '/setup')
    await page.getByLabel('Name', { exact: true }).fill(ADMIN.name)
    await page.getByLabel('Email Address').fill(ADMIN.email)
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password)
    await page.getByLabel('Organization Name').fill(ADMIN.org_name)
    // the address links will point to is proposed from the one the browser opened, for the admin to confirm
    expect(await page.getByLabel('Sightline’s address').inputValue()).toBe(suite.server.url)
    await page.getByRole('button', { name: 'Setup' }).click()
    await page.waitForURL(suite.server.url + '/')
    expect(await page.title()).toBe('Home | Sightline')
    const [org] = await suite.server.db.sql<{ settings: Record<string, unknown> }[]>`select settings from organizations`
    expect(org.settings.base_url).toBe(suite.server.url)
    expect(await page.locator('[data-origin-banner]').count()).toBe(0)
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.isVisible()).toBe(true)
    expect(await nav.getByRole('link', { name: 'Dashboards' }).isVisible()).toBe(true)
    expect(await nav.getByText(ADMIN.name).isVisible()).toBe(true)
    expect(await page.getByRole('heading', { name: 'Welcome...' }).isVisible()).toBe(true)
    expect(await page.getByText('Connect to any data source, easily visualize and share your data').isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Connect a Data Source' }).getAttribute('href')).toBe('/data_sources/new')
    // the form is gone for good
    await page.goto(suite.server.url + '/setup')
    expect(new URL(page.url()).pathname).toBe('/')
    expect(problems).toEqual([])
  })
})

describe('signing in and out', () => {
  it('the login page loads no script and passes an accessibility check', async () => {
    await page.goto(suite.server.url + '/login')
    expect(await page.getByRole('heading', { name: 'Login to Sightline' }).isVisible()).toBe(true)
    // the email field has the focus, ready to type
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-email')
    await expectNoScript()
    expect(await seriousA11yViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await seriousA11yViolations(page), 'dark').toEqual([])
  })

  it('takes an anonymous visitor to sign in, then back to the address they asked for', async () => {
    await page.goto(suite.server.url + '/?tab=favorites')
    const login = new URL(page.url())
    expect(login.pathname).toBe('/login')
    expect(login.searchParams.get('next')).toBe('/?tab=favorites')
    await fillLogin(page, ADMIN.email, ADMIN.password)
    await page.waitForURL(suite.server.url + '/?tab=favorites')
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true)
    expect(problems).toEqual([])
  })

  it('says "Wrong email or password." and keeps the email, not the password', async () => {
    await page.goto(suite.server.url + '/login?next=%2F%3Fa%3D1')
    await fillLogin(page, ADMIN.email, 'not the password')
    await page.waitForLoadState()
    expect(await page.getByRole('alert').textContent()).toBe('Wrong email or password.')
    expect(await page.getByLabel('Email').inputValue()).toBe(ADMIN.email)
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('')
    // still on the sign-in page, and a second try still goes where the visitor was going
    await fillLogin(page, ADMIN.email, ADMIN.password)
    await page.waitForURL(suite.server.url + '/?a=1')
  })

  it('logs out from the profile menu, and the old session no longer opens pages', async () => {
    await page.goto(suite.server.url + '/login')
    await fillLogin(page, ADMIN.email, ADMIN.password)
    await page.waitForURL(suite.server.url + '/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('button', { name: 'Log out' }).isVisible()).toBe(false)
    await nav.getByLabel(`Account: ${ADMIN.name}`).click()
    await nav.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(suite.server.url + '/login')
    await page.goto(suite.server.url + '/')
    expect(new URL(page.url()).pathname).toBe('/login')
  })
})

describe('error pages', () => {
  it('a missing page says so in the spec\'s words, with status 404 and no script', async () => {
    for (const signedIn of [false, true]) {
      if (signedIn) {
        await page.goto(suite.server.url + '/login')
        await fillLogin(page, ADMIN.email, ADMIN.password)
        await page.waitForURL(suite.server.url + '/')
        scripts.length = 0
      }
      const res = await page.goto(suite.server.url + '/no/such/page')
      expect(res?.status()).toBe(404)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("It seems like the page you're looking for cannot be found.")
      await expectNoScript()
      expect(await seriousA11yViolations(page)).toEqual([])
      await page.getByRole('link', { name: 'Go to the home page' }).click()
      await page.waitForLoadState()
      expect(new URL(page.url()).pathname).toBe(signedIn ? '/' : '/login')
    }
  })
})
