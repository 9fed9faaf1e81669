import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import {
  ADMIN, browserSuite, cookieHeader, DESKTOP, fillLogin, orgSettings, PHONE, resetBeaconConsent, signInOverHttp, toastWith, waitForIslands,
} from './support.ts'

/** The interactive parts of the signed-in pages: hydration, help drawer, toasts, consent card, expired sessions, CSRF. */
const suite = browserSuite()

/** Home page in a fresh browser, signed in with the given session (a session of its own by default). */
async function openHome(o: { jar?: Map<string, string>; viewport?: { width: number; height: number } } = {}) {
  const jar = o.jar ?? await signInOverHttp(suite.server, ADMIN.email, ADMIN.password)
  const { page, problems } = await suite.newPage({ as: jar, viewport: o.viewport })
  const requests: string[] = []
  page.on('request', (req) => requests.push(`${req.method()} ${new URL(req.url()).pathname}`))
  await page.goto(suite.server.url + '/')
  await waitForIslands(page)
  return { page, problems, requests, jar }
}

const consentCard = (page: Page) => page.getByRole('region', { name: /sharing anonymous usage data/ })

describe('hydration', () => {
  it('hydrates every island of the home page without a console error, within the script budget', async () => {
    const sizes: Promise<number>[] = []
    const { page, problems } = await suite.newPage()
    page.on('requestfinished', (req) => {
      if (req.resourceType() === 'script') sizes.push(req.sizes().then((s) => s.responseBodySize))
    })
    await page.goto(suite.server.url + '/')
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
    const { page } = await openHome({ jar: suite.admin })
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
    const { page, problems } = await openHome({ jar: suite.admin })
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
    expect(times.opened - times.clicked).toBeGreaterThanOrEqual(300) // never sooner (how much later is the machine's business)
    const box = (await dialog.boundingBox())!
    expect(box.width).toBe(400)
    expect(box.x + box.width).toBe(DESKTOP.width) // on the right edge
    const frame = dialog.locator('iframe')
    expect(new URL(await frame.getAttribute('src') ?? '', suite.server.url).pathname + new URL(await frame.getAttribute('src') ?? '', suite.server.url).search).toBe('/help?embed=1')
    const content = page.frameLocator('iframe[title="Help"]')
    await content.getByRole('heading', { name: 'Sightline help' }).waitFor()
    expect(await content.getByRole('link', { name: /Home/ }).count()).toBe(0) // no way out of the frame
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    // the keyboard user is back where they were
    // focus comes back on the Help link (checked until it does: restoring runs after the dialog unmounts)
    await page.waitForFunction(() => document.activeElement?.textContent === 'Help')
    expect(problems).toEqual([])
  })

  it('on a phone it opens from the menu and fits the screen', async () => {
    const { page, problems } = await openHome({ jar: suite.admin, viewport: PHONE })
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
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Menu')
    expect(problems).toEqual([])
  })
})

describe('beacon consent card', () => {
  it('Yes saves the consent, thanks the admin bottom right for 3 seconds and hides the card for good', async () => {
    await resetBeaconConsent(suite.server, suite.admin)
    const { page, problems } = await openHome({ jar: suite.admin })
    // the page's clock stands still and moves only when told, so "3 seconds" is the page's own count
    await page.clock.install()
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000))
    await consentCard(page).getByRole('button', { name: 'Yes' }).click()
    const toast = toastWith(page, 'Thank you')
    await toast.waitFor()
    const box = (await toast.boundingBox())!
    expect(DESKTOP.width - (box.x + box.width)).toBeLessThanOrEqual(32)
    expect(DESKTOP.height - (box.y + box.height)).toBeLessThanOrEqual(32)
    expect(await consentCard(page).count()).toBe(0)
    await page.clock.runFor(2_999)
    expect(await toast.isVisible()).toBe(true)
    await page.clock.runFor(1)
    await toast.waitFor({ state: 'detached' })
    await page.clock.resume()
    expect((await orgSettings(suite.server, suite.admin)).beacon_consent).toBe(true)
    await page.reload()
    await waitForIslands(page)
    expect(await consentCard(page).count()).toBe(0)
    expect(problems).toEqual([])
  })

  it('No saves the refusal with "Settings Saved."', async () => {
    await resetBeaconConsent(suite.server, suite.admin)
    const { page } = await openHome({ jar: suite.admin })
    await consentCard(page).getByRole('button', { name: 'No' }).click()
    await toastWith(page, 'Settings Saved.').waitFor()
    expect(await consentCard(page).count()).toBe(0)
    expect((await orgSettings(suite.server, suite.admin)).beacon_consent).toBe(false)
  })
})

describe('when a call fails', () => {
  it('an expired session asks to log in again in a popup, then carries on with the call', async () => {
    await resetBeaconConsent(suite.server, suite.admin)
    const { page, problems, jar } = await openHome()
    // the session ends elsewhere (signed out in another tab): the server revokes it at once
    const out = await fetch(suite.server.url + '/logout', { method: 'POST', headers: { cookie: cookieHeader(jar) }, redirect: 'manual' })
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
    expect((await orgSettings(suite.server, suite.admin)).beacon_consent).toBe(true)
    expect(problems.filter((p) => !/401/.test(p))).toEqual([])
  })

  it('a stale CSRF token is renewed through /ping and the call retried, unnoticed by the user', async () => {
    await resetBeaconConsent(suite.server, suite.admin)
    const { page, problems, requests } = await openHome()
    await page.evaluate(() => {
      document.cookie = 'csrf_token=garbage; path=/'
    })
    await consentCard(page).getByRole('button', { name: 'Yes' }).click()
    await toastWith(page, 'Thank you').waitFor()
    expect(await consentCard(page).count()).toBe(0)
    expect(requests.filter((r) => r === 'POST /api/settings/organization' || r === 'GET /ping'))
      .toEqual(['POST /api/settings/organization', 'GET /ping', 'POST /api/settings/organization'])
    expect((await orgSettings(suite.server, suite.admin)).beacon_consent).toBe(true)
    expect(await page.locator('[data-toast="error"]').count()).toBe(0)
    expect(problems.filter((p) => !/400/.test(p))).toEqual([])
  })
})
