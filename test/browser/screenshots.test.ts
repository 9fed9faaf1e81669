import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN, browserSuite, cookieHeader, DESKTOP, PHONE, resetBeaconConsent, setUpOrganization, signInOverHttp, waitForIslands, screenshot,
} from './support.ts'
import { layoutProblems } from './page-checks.ts'

/**
 * Every main screen at a desktop and a phone width, in light and dark. With `npm run screenshots` the pictures land in
 * test/browser/screenshots/ for people to look at; the test itself checks what breaks a layout outright: nothing wider than the screen, nothing
 * sticking out past its right edge, images that load.
 */
const DIR = path.join(import.meta.dirname, 'screenshots')
const sizes = { desktop: DESKTOP, phone: PHONE }

const suite = browserSuite({ organization: false }) // the first screens are the setup form's
let admin: Map<string, string>

beforeAll(() => {
  fs.mkdirSync(DIR, { recursive: true })
})

async function shoot(name: string, size: keyof typeof sizes, o: {
  signedIn?: boolean; jar?: Map<string, string>; dark?: boolean; path: string; before?: (page: Page) => Promise<void>
  /** Only what is on screen, for overlays that cover the window rather than the page. */
  windowOnly?: boolean
}) {
  const opened = await suite.newPage({ viewport: sizes[size], dark: o.dark, as: o.jar ?? (o.signedIn ? admin : null) })
  const { page } = opened
  try {
    await page.goto(suite.server.url + o.path)
    if (await page.locator('sightline-island').count()) await waitForIslands(page)
    await o.before?.(page)
    await screenshot(page, { path: path.join(DIR, `${name}-${size}${o.dark ? '-dark' : ''}.png`), fullPage: !o.windowOnly })
    return await layoutProblems(page, { scope: 'main *, nav *, header *' })
  } finally {
    await suite.done(opened)
  }
}

describe('screens at desktop and phone widths', () => {
  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('setup fits the %s screen', async (size) => {
    expect(await shoot('setup', size, { path: '/setup' })).toEqual([])
    expect(await shoot('setup', size, { path: '/setup', dark: true })).toEqual([])
  })

  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('login, home, 404 and help fit the %s screen', async (size) => {
    admin ??= await setUpOrganization(suite.server)
    for (const dark of [false, true]) {
      expect(await shoot('login', size, { path: '/login', dark })).toEqual([])
      expect(await shoot('home', size, { path: '/', signedIn: true, dark })).toEqual([])
      expect(await shoot('not-found', size, { path: '/no/such/page', signedIn: true, dark })).toEqual([])
      expect(await shoot('help', size, { path: '/help', signedIn: true, dark })).toEqual([])
    }
  })

  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('the session-expired modal and a toast fit the %s screen', async (size) => {
    admin ??= await setUpOrganization(suite.server)
    for (const dark of [false, true]) {
      const jar = await signInOverHttp(suite.server, ADMIN.email, ADMIN.password)
      await resetBeaconConsent(suite.server, admin)
      const problems = await shoot('session-expired', size, {
        path: '/', jar, dark, windowOnly: true,
        before: async (page) => {
          await fetch(suite.server.url + '/logout', { method: 'POST', headers: { cookie: cookieHeader(jar) }, redirect: 'manual' })
          await page.getByRole('button', { name: 'Yes' }).click()
          const modal = page.getByRole('dialog')
          await modal.waitFor()
          const box = (await modal.boundingBox())!
          expect(box.x).toBeGreaterThanOrEqual(16)
          expect(box.x + box.width).toBeLessThanOrEqual(sizes[size].width - 16)
          // a toast on top of it, as after a save
          await page.evaluate(() => window.dispatchEvent(new CustomEvent('sightline:toast', { detail: { message: 'Settings changes saved.', kind: 'success' } })))
          const toast = page.locator('[data-toast]')
          await toast.waitFor()
          // the toast is readable above the modal's shade, not under it
          const [x, y] = await toast.evaluate((el) => { const r = el.getBoundingClientRect(); return [r.x + 10, r.y + 10] })
          expect(await page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-toast]'), [x, y])).toBe(true)
        },
      })
      expect(problems).toEqual([])
    }
  })

  it('the phone menu opens with every entry reachable on screen', async () => {
    admin ??= await setUpOrganization(suite.server)
    for (const dark of [false, true]) {
      const problems = await shoot('home-menu', 'phone', {
        path: '/', signedIn: true, dark,
        before: async (page) => {
          await page.getByRole('navigation', { name: 'Menu' }).locator('summary').click()
          const menu = page.getByRole('navigation', { name: 'Menu' })
          for (const name of ['Dashboards', 'Queries', 'Alerts', 'New Query', 'Help', 'Settings', 'Profile', 'Edit Profile', 'Log out']) {
            const box = await menu.getByRole(name === 'Log out' ? 'button' : 'link', { name, exact: true }).boundingBox()
            expect(box, name).not.toBeNull()
            expect(box!.x).toBeGreaterThanOrEqual(0)
            expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
            expect(box!.height).toBeGreaterThanOrEqual(44) // big enough for a finger
          }
        },
      })
      expect(problems).toEqual([])
    }
  })

  it('the desktop help drawer and profile menu', async () => {
    admin ??= await setUpOrganization(suite.server)
    await shoot('home-help', 'desktop', {
      path: '/', signedIn: true,
      before: async (page) => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
        await page.getByRole('dialog').locator('iframe').waitFor()
        await page.frameLocator('iframe').getByRole('heading', { name: 'Sightline help' }).waitFor()
      },
    })
    await shoot('home-profile', 'desktop', {
      path: '/', signedIn: true, dark: true,
      before: async (page) => {
        await page.getByRole('navigation', { name: 'Main' }).getByLabel(/^Account/).click()
        await page.getByRole('button', { name: 'Log out' }).waitFor()
      },
    })
  })
})
