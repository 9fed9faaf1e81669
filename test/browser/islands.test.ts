import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, startTestServer, type TestServer } from '../helpers/server.ts'
import {
  ADMIN, cookieHeader, DESKTOP, fillLogin, orgSettings, PHONE, resetBeaconConsent, setUpOrganization, signInOverHttp, toastWith, useCookies, waitForIslands, watchProblems,
} from './support.ts'

/** The interactive parts of the signed-in pages: hydration, help drawer, toasts, consent card, expired sessions, CSRF. */
let server: TestServer
let browser: Browser
let admin: Map<string, string>
const contexts: BrowserContext[] = []

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startTestServer(), launchBrowser()])
  admin = await setUpOrganization(server)
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
})

interface Opened {
  page: Page
  problems: string[]
  requests: string[]
  jar: Map<string, string>
}

/** Home page in a fresh browser, signed in with the given session (a session of its own by default). */
async function openHome(o: { jar?: Map<string, string>; viewport?: { width: number; height: number } } = {}): Promise<Opened> {
  const jar = o.jar ?? await signInOverHttp(server, ADMIN.email, ADMIN.password)
  const context = await browser.newContext({ viewport: o.viewport ?? DESKTOP })
  context.setDefaultTimeout(5000)
  contexts.push(context)
  await useCookies(context, server, jar)
  const page = await context.newPage()
  const problems = watchProblems(page)
  const requests: string[] = []
  page.on('request', (req) => requests.push(`${req.method()} ${new URL(req.url()).pathname}`))
  await page.goto(server.url + '/')
  await waitForIslands(page)
  return { page, problems, requests, jar }
}

const consentCard = (page: Page) => page.getByRole('region', { name: /sharing anonymous usage data/ })

describe('hydration', () => {
  it('hydrates every island of the home page without a console error, within the script budget', async () => {
    const sizes: Promise<number>[] = []
    const context = await browser.newContext({ viewport: DESKTOP })
    contexts.push(context)
    await useCookies(context, server, admin)
    const page = await context.newPage()
    const problems = watchProblems(page)
    page.on('requestfinished', (req) => {
      if (req.resourceType() === 'script') sizes.push(req.sizes().then((s) => s.responseBodySize))
    })
    await page.goto(server.url + '/')
    await waitForIslands(page)
    await page.waitForLoadState('networkidle')
    const names = await page.locator('sightline-island[data-hydrated]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')).sort())
    expect(names).toEqual(['BeaconConsent', 'HelpDrawer', 'MenuDismiss', 'SessionExpiredModal', 'Toaster'])
    const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0)
    expect(sizes.length).toBeGreaterThan(0)
    expect(total).toBeLessThan(80 * 1024) // gzipped, as sent
    expect(problems).toEqual([])
  })

  it('shows the offline notice while the connection is gone', async () => {
    const { page } = await openHome({ jar: admin })
    const notice = page.getByText('Please check your Internet connection.')
    expect(await notice.count()).toBe(0)
    await page.context().setOffline(true)
    await notice.waitFor()
    await page.context().setOffline(false)
    await notice.waitFor({ state: 'detached' })
  })
})

describe('help drawer', () => {
  it('opens after 300 ms as a 400 px dialog with the help page, and closes with Escape', async () => {
    const { page, problems } = await openHome({ jar: admin })
    // time the click and the dialog's arrival inside the page, free of the test driver's own delays
    await page.evaluate(() => {
      const times: Record<string, number> = {}
      ;(window as unknown as { helpTimes: Record<string, number> }).helpTimes = times
      document.addEventListener('click', () => (times.clicked ??= performance.now()), { capture: true })
      new MutationObserver(() => {
        if (document.querySelector('[role="dialog"]')) times.opened ??= performance.now()
      }).observe(document.body, { childList: true, subtree: true })
    })
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
    expect(new URL(page.url()).pathname).toBe('/') // the link did not navigate away
    const dialog = page.getByRole('dialog', { name: 'Help' })
    await dialog.waitFor()
    const times = await page.evaluate(() => (window as unknown as { helpTimes: Record<string, number> }).helpTimes)
    expect(times.opened - times.clicked).toBeGreaterThanOrEqual(300)
    expect(times.opened - times.clicked).toBeLessThan(550)
    const box = (await dialog.boundingBox())!
    expect(box.width).toBe(400)
    expect(box.x + box.width).toBe(DESKTOP.width) // on the right edge
    const frame = dialog.locator('iframe')
    expect(new URL(await frame.getAttribute('src') ?? '', server.url).pathname + new URL(await frame.getAttribute('src') ?? '', server.url).search).toBe('/help?embed=1')
    const content = page.frameLocator('iframe[title="Help"]')
    await content.getByRole('heading', { name: 'Sightline help' }).waitFor()
    expect(await content.getByRole('link', { name: /Home/ }).count()).toBe(0) // no way out of the frame
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    // the keyboard user is back where they were
    // focus comes back on the Help link (checked until it does, up to 2 s: restoring runs after the dialog unmounts)
    await page.waitForFunction(() => document.activeElement?.textContent === 'Help', undefined, { timeout: 2000 })
    expect(problems).toEqual([])
  })

  it('on a phone it opens from the menu and fits the screen', async () => {
    const { page, problems } = await openHome({ jar: admin, viewport: PHONE })
    const menu = page.getByRole('navigation', { name: 'Menu' })
    await menu.locator('summary').click()
    await menu.getByRole('link', { name: 'Help' }).click()
    const dialog = page.getByRole('dialog', { name: 'Help' })
    await dialog.waitFor()
    const box = (await dialog.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.width).toBeLessThanOrEqual(PHONE.width)
    // the menu closed behind it (the page under the dialog is hidden from the accessibility tree, so find it by tag)
    expect(await page.locator('header details').getAttribute('open')).toBeNull()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    // focus back on the menu button (restoring runs after the dialog unmounts)
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Menu', undefined, { timeout: 2000 })
    expect(problems).toEqual([])
  })
})

describe('beacon consent card', () => {
  it('Yes saves the consent, thanks the admin bottom right for 3 seconds and hides the card for good', async () => {
    await resetBeaconConsent(server, admin)
    const { page, problems } = await openHome({ jar: admin })
    // when the toast comes and goes, timed inside the page
    await page.evaluate(() => {
      const times: Record<string, number> = {}
      ;(window as unknown as { toastTimes: Record<string, number> }).toastTimes = times
      new MutationObserver(() => {
        const present = !!document.querySelector('[data-toast]')
        if (present) times.shown ??= performance.now()
        else if (times.shown) times.gone ??= performance.now()
      }).observe(document.body, { childList: true, subtree: true })
    })
    await consentCard(page).getByRole('button', { name: 'Yes' }).click()
    const toast = toastWith(page, 'Thank you')
    await toast.waitFor()
    const box = (await toast.boundingBox())!
    expect(DESKTOP.width - (box.x + box.width)).toBeLessThanOrEqual(32)
    expect(DESKTOP.height - (box.y + box.height)).toBeLessThanOrEqual(32)
    expect(await consentCard(page).count()).toBe(0)
    await toast.waitFor({ state: 'detached' })
    const times = await page.evaluate(() => (window as unknown as { toastTimes: Record<string, number> }).toastTimes)
    expect(times.gone - times.shown).toBeGreaterThanOrEqual(2900)
    expect(times.gone - times.shown).toBeLessThan(3500)
    expect((await orgSettings(server, admin)).beacon_consent).toBe(true)
    await page.reload()
    await waitForIslands(page)
    expect(await consentCard(page).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('No saves the refusal with "Settings Saved."', async () => {
    await resetBeaconConsent(server, admin)
    const { page } = await openHome({ jar: admin })
    await consentCard(page).getByRole('button', { name: 'No' }).click()
    await toastWith(page, 'Settings Saved.').waitFor()
    expect(await consentCard(page).count()).toBe(0)
    expect((await orgSettings(server, admin)).beacon_consent).toBe(false)
  })
})

describe('when a call fails', () => {
  it('an expired session asks to log in again in a popup, then carries on with the call', async () => {
    await resetBeaconConsent(server, admin)
    const { page, problems, jar } = await openHome()
    // the session ends elsewhere (signed out in another tab): the server revokes it at once
    const out = await fetch(server.url + '/logout', { method: 'POST', headers: { cookie: cookieHeader(jar) }, redirect: 'manual' })
    expect(out.status).toBe(302)

    await consentCard(page).getByRole('button', { name: 'Yes' }).click()
    const modal = page.getByRole('dialog', { name: 'Your session has expired. Please login to continue.' })
    await modal.waitFor()
    // nothing saved yet: the card is still there, under the modal (which hides the page from assistive technology)
    expect(await page.locator('section[aria-labelledby="beacon-title"]').isVisible()).toBe(true)
    expect(await consentCard(page).count()).toBe(0)
    // it cannot be dismissed: nothing on the page works until the user is back
    await page.keyboard.press('Escape')
    expect(await modal.isVisible()).toBe(true)

    const popupOpened = page.waitForEvent('popup')
    await modal.getByRole('button', { name: 'Login' }).click()
    const popup = await popupOpened
    await popup.waitForLoadState()
    const at = new URL(popup.url())
    expect(at.pathname + at.search).toBe('/login?next=%2Flogin%2Frestored')
    expect(popup.viewportSize()).toEqual({ width: 640, height: 640 })
    const closed = popup.waitForEvent('close')
    await fillLogin(popup, ADMIN.email, ADMIN.password)
    await closed

    await modal.waitFor({ state: 'detached' })
    await toastWith(page, 'Thank you').waitFor()
    expect(await consentCard(page).count()).toBe(0)
    expect((await orgSettings(server, admin)).beacon_consent).toBe(true)
    expect(problems.filter((p) => !/401/.test(p))).toEqual([])
  })

  it('a stale CSRF token is renewed through /ping and the call retried, unnoticed by the user', async () => {
    await resetBeaconConsent(server, admin)
    const { page, problems, requests } = await openHome()
    await page.evaluate(() => {
      document.cookie = 'csrf_token=garbage; path=/'
    })
    await consentCard(page).getByRole('button', { name: 'Yes' }).click()
    await toastWith(page, 'Thank you').waitFor()
    expect(await consentCard(page).count()).toBe(0)
    expect(requests.filter((r) => r === 'POST /api/settings/organization' || r === 'GET /ping'))
      .toEqual(['POST /api/settings/organization', 'GET /ping', 'POST /api/settings/organization'])
    expect((await orgSettings(server, admin)).beacon_consent).toBe(true)
    expect(await page.locator('[data-toast="error"]').count()).toBe(0)
    expect(problems.filter((p) => !/400/.test(p))).toEqual([])
  })
})
